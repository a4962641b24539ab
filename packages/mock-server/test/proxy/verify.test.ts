/**
 * `entrada-mock verify` in-process: the unmodified mock conforms (exit 0, every operation probed, every journey
 * run); the drifting relay fails naming exactly its differences (operation, rule, pointer); `--read-only` sends no
 * write; `--junit` writes a report CI can read. (The packed-tarball run is in package/verify-tarball.test.ts.)
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import operationTable from "@entrada/openapi/operations.json" with { type: "json" };
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/node/index.ts";
import { verifyMain } from "../../src/node/verify/main.ts";
import { type DriftingRelay, RELAY_DIFFERENCES, startDriftingRelay } from "../../src/proxy/drifting-relay.ts";

/** Every operation of the contract is probed (its count follows the contract). */
const OPERATIONS = Object.keys(operationTable).length;

async function verify(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await verifyMain(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, {});
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** The difference lines of the output: `operationId  rule  pointer` (message dropped). */
function differences(out: string): string[] {
  return out
    .split("\n")
    .filter((l) => /^ {6}\S/.test(l))
    .map((l) => l.trim().split(/ {2}/).slice(0, 3).join(" "))
    .sort();
}

let mock: MockServer;
let relay: DriftingRelay;
const dir = mkdtempSync(join(tmpdir(), "entrada-verify-"));

beforeAll(async () => {
  mock = await startMockServer({ port: 0, docs: false, rateLimit: false });
  relay = await startDriftingRelay();
});
afterAll(async () => {
  await relay.close();
  await mock.close();
});

describe("entrada-mock verify", () => {
  it("passes against the mock: every operation probed, every journey run, JUnit written", async () => {
    const junit = join(dir, "mock.xml");
    const result = await verify(["--base-url", mock.url, "--junit", junit]);
    expect(differences(result.out)).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      new RegExp(
        `${OPERATIONS} operations, \\d+ authentication probes, 4 journeys, 0 skipped: conforms to the contract`,
      ),
    );
    expect(result.out).toContain(
      "✓ purchase: token → discovery → cart → items → buyer → provider → checkout → purchase webhook",
    );
    expect(result.out).toContain("✓ entrance scan");
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain(
      `<testsuite name="entrada-mock verify: operations" tests="${OPERATIONS}" failures="0"`,
    );
    expect(xml).toContain('<testsuite name="entrada-mock verify: journeys" tests="4" failures="0"');
  });

  it("fails against the drifting relay naming exactly its differences", async () => {
    const junit = join(dir, "relay.xml");
    const result = await verify(["--base-url", relay.url, "--junit", junit]);
    expect(result.code).toBe(1);
    // The relay's 410 for listVenues also answers its authentication probes (no 401): named as well.
    expect([...new Set(differences(result.out))]).toEqual(
      [
        ...RELAY_DIFFERENCES.map((d) => `${d.operationId} ${d.rule} ${d.pointer}`),
        "listVenues auth /status",
      ].sort(),
    );
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain('name="listVenues"');
    expect(xml).toMatch(/<failure message="status \/status: Status 410 is not declared for listVenues/);
  });

  it("sends no write under --read-only", async () => {
    const before = mock.core.session().world as { shop: { carts: Map<string, unknown> } };
    const carts = before.shop.carts.size;
    const result = await verify(["--base-url", mock.url, "--read-only"]);
    expect(result.code).toBe(0);
    expect(before.shop.carts.size).toBe(carts);
    expect(result.out).toContain("- createCart  (skipped: a write; not sent under --read-only)");
    expect(result.out).toContain("✓ languages");
    expect(result.out).toMatch(
      new RegExp(
        `${OPERATIONS} operations, \\d+ authentication probes, 4 journeys, \\d+ skipped: conforms to the contract`,
      ),
    );
  });

  it("exits 2 on bad usage", async () => {
    const result = await verify(["--base-url", "not a url"]);
    expect(result.code).toBe(2);
    expect(result.err).toContain("--base-url must be an absolute URL");
  });
});
