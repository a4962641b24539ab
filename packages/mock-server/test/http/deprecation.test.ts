// Deprecations on a fixture contract (nothing real is deprecated): the contract with `getEvent` deprecated and
// `listEvents`' `slug` parameter deprecated, served with `entrada-mock --openapi`. The mock answers them with
// `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and `Link: <changelog>; rel="deprecation"`; `entrada-mock verify`
// checks those headers against the document it is given.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import contract from "@entrada/openapi/openapi.json" with { type: "json" };
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/node/index.ts";
import { verifyMain } from "../../src/node/verify/main.ts";
import { read, startCli } from "../helpers.ts";

type Obj = Record<string, unknown>;
const dir = mkdtempSync(join(tmpdir(), "entrada-deprecation-"));
const fixture = join(dir, "deprecated-openapi.json");
const CHANGELOG = (contract.info as Obj)["x-changelog"] as string;

function deprecatedContract(): Obj {
  const document = structuredClone(contract) as unknown as { paths: Record<string, Record<string, Obj>> };
  const getEvent = document.paths["/shop/v1/discovery/events/{eventId}"]?.get as Obj;
  Object.assign(getEvent, { deprecated: true, "x-deprecated-at": "2026-11-01", "x-sunset": "2027-06-01" });
  const listEvents = document.paths["/shop/v1/discovery/events"]?.get as { parameters: Obj[] };
  const slug = listEvents.parameters.find((p) => p.name === "slug") as Obj;
  Object.assign(slug, { deprecated: true, "x-deprecated-at": "2026-12-01", "x-sunset": "2027-03-01" });
  return document;
}

let cli: { url: string; stop: () => void };
let plain: MockServer;

beforeAll(async () => {
  writeFileSync(fixture, JSON.stringify(deprecatedContract()));
  const { child, state, url } = await startCli([
    ...["--openapi", fixture, "--port", "0", "--history-orders", "0", "--no-webhooks", "--no-docs"],
    ...["--no-bi-assistant", "--rate-limit", "off"],
  ]);
  if (url === undefined) throw new Error(`entrada-mock exited without its banner:\n${state.output}`);
  cli = { url, stop: () => child.kill("SIGTERM") };
  plain = await startMockServer({ port: 0, docs: false, rateLimit: false });
}, 60_000);
afterAll(async () => {
  cli?.stop();
  await plain?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function get(base: string, path: string): Promise<Response> {
  const token = await fetch(`${base}/connect/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials&scope=Shop",
  });
  const { access_token } = await read.body(token, "createToken");
  return fetch(`${base}${path}`, {
    headers: { authorization: `Bearer ${access_token}`, origin: "https://shop.example" },
  });
}

describe("a deprecated operation served with --openapi", () => {
  it("answers with Deprecation, Sunset and a Link to the changelog, readable cross-origin", async () => {
    const list = await read.body(await get(cli.url, "/shop/v1/discovery/events?limit=1"), "listEvents");
    const response = await get(cli.url, `/shop/v1/discovery/events/${list.items[0]?.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("deprecation")).toBe(`@${Date.UTC(2026, 10, 1) / 1000}`);
    expect(response.headers.get("sunset")).toBe("Tue, 01 Jun 2027 00:00:00 GMT");
    expect(response.headers.get("link")).toBe(`<${CHANGELOG}>; rel="deprecation"; type="text/html"`);
    expect(response.headers.get("access-control-expose-headers")).toContain("Deprecation, Sunset, Link");
  });

  it("answers a deprecated parameter's use with its dates, and nothing without it", async () => {
    const withSlug = await get(cli.url, "/shop/v1/discovery/events?slug=jazz-night-kaufleuten");
    expect(withSlug.status).toBe(200);
    expect(withSlug.headers.get("deprecation")).toBe(`@${Date.UTC(2026, 11, 1) / 1000}`);
    expect(withSlug.headers.get("sunset")).toBe("Mon, 01 Mar 2027 00:00:00 GMT");
    const without = await get(cli.url, "/shop/v1/discovery/events?limit=1");
    expect(without.headers.get("deprecation")).toBeNull();
    const venues = await get(cli.url, "/shop/v1/discovery/venues");
    expect([venues.status, venues.headers.get("deprecation"), venues.headers.get("link")]).toEqual([
      200,
      null,
      null,
    ]);
  });
});

describe("entrada-mock verify --openapi", () => {
  async function verify(base: string): Promise<{ code: number; out: string }> {
    const out: string[] = [];
    const code = await verifyMain(
      ["--base-url", base, "--openapi", fixture, "--read-only"],
      { out: (l) => out.push(l), err: (l) => out.push(l) },
      {},
    );
    return { code, out: out.join("\n") };
  }

  it("passes the mock that serves the fixture", async () => {
    const result = await verify(cli.url);
    expect(result.out).not.toContain("deprecation");
    expect(result.code, result.out).toBe(0);
  });

  it("fails a server that does not announce the deprecation, naming each header", async () => {
    const result = await verify(plain.url);
    expect(result.code).toBe(1);
    const lines = result.out.split("\n").filter((l) => /^ {6}getEvent/.test(l));
    expect(lines.map((l) => l.trim().split(/ {2}/).slice(0, 3).join(" "))).toEqual([
      "getEvent deprecation /header/deprecation",
      "getEvent deprecation /header/sunset",
      "getEvent deprecation /header/link",
    ]);
    expect(result.out).toContain('getEvent is deprecated: Deprecation should be "@1793491200", got none.');
  });

  it("refuses a file that is not an OpenAPI 3.1 document", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ swagger: "2.0" }));
    const err: string[] = [];
    const code = await verifyMain(["--openapi", bad], { out: () => {}, err: (l) => err.push(l) }, {});
    expect([code, err.join("\n")]).toEqual([
      2,
      "entrada-mock verify: --openapi needs an OpenAPI 3.1 JSON document",
    ]);
  });
});
