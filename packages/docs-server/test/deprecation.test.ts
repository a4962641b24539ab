// A fixture contract with one deprecated operation and one deprecated parameter (nothing real is deprecated):
// the Markdown mirror, get_endpoint and the HTML reference's document show the dates.
import contract from "@entrada/openapi/openapi.json" with { type: "json" };
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningDocsServer, startDocsServer } from "../src/index.ts";
import { callTool, conforms } from "./helpers.ts";

type Obj = Record<string, unknown>;
const document = structuredClone(contract) as unknown as { paths: Record<string, Record<string, Obj>> };
const getEvent = document.paths["/shop/v1/discovery/events/{eventId}"]?.get as Obj;
Object.assign(getEvent, { deprecated: true, "x-deprecated-at": "2026-11-01", "x-sunset": "2027-06-01" });
const listEvents = document.paths["/shop/v1/discovery/events"]?.get as { parameters: Obj[] };
const slug = listEvents.parameters.find((p) => p.name === "slug") as Obj;
Object.assign(slug, { deprecated: true, "x-deprecated-at": "2026-11-01", "x-sunset": "2027-03-01" });

let docs: RunningDocsServer;
beforeAll(async () => {
  docs = await startDocsServer({ port: 0, document, rateLimit: { limit: 100_000, windowSeconds: 60 } });
});
afterAll(() => docs.close());

describe("deprecations in the documentation", () => {
  it("open the endpoint's text and fill get_endpoint's deprecation", async () => {
    const result = await callTool(docs.url, "get_endpoint", { endpoint: "getEvent" });
    conforms("GetEndpointResult", result.structuredContent);
    expect(result.structuredContent?.deprecation).toEqual({
      deprecatedAt: "2026-11-01",
      sunset: "2027-06-01",
    });
    expect(result.content[0]?.text).toContain(
      "**Deprecated since 2026-11-01; sunset 2027-06-01 (it may stop working after that date).**",
    );
    const other = await callTool(docs.url, "get_endpoint", { endpoint: "listVenues" });
    expect(other.structuredContent?.deprecation).toBeNull();
  });

  it("mark a deprecated parameter in its row and in get_endpoint", async () => {
    const result = await callTool(docs.url, "get_endpoint", { endpoint: "listEvents" });
    conforms("GetEndpointResult", result.structuredContent);
    const parameters = result.structuredContent?.parameters as { name: string; deprecation?: unknown }[];
    expect(parameters.find((p) => p.name === "slug")?.deprecation).toEqual({
      deprecatedAt: "2026-11-01",
      sunset: "2027-03-01",
    });
    expect(parameters.find((p) => p.name === "venueId")?.deprecation).toBeUndefined();
    expect(result.content[0]?.text).toMatch(
      /\| `slug` \| no \| [^|]+ \| \*\*Deprecated since 2026-11-01; sunset 2027-03-01/,
    );
  });

  it("open the operation's description in the HTML reference's document", async () => {
    const reference = (await (await fetch(`${docs.url}/reference/openapi.json`)).json()) as typeof document;
    const op = reference.paths["/shop/v1/discovery/events/{eventId}"]?.get as Obj;
    expect(op.deprecated).toBe(true);
    expect(String(op.description)).toMatch(/^\*\*Deprecated since 2026-11-01; sunset 2027-06-01/);
  });
});
