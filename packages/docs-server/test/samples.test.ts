import contract from "@entrada/openapi/openapi.json" with { type: "json" };
import operations from "@entrada/openapi/operations.json" with { type: "json" };
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSnapshot, type RunningDocsServer, referenceDocument } from "../src/index.ts";
import { callTool, conforms, startDocs } from "./helpers.ts";

type Operation = { operationId: string; "x-codeSamples"?: { label: string; lang: string; source: string }[] };
type Paths = Record<string, Record<string, Operation>>;

let docs: RunningDocsServer;
beforeAll(async () => {
  docs = await startDocs();
});
afterAll(() => docs.close());

describe("the SDK sample of every operation", () => {
  it("comes first in the reference document's x-codeSamples, for every operation", async () => {
    const reference = (await (await fetch(`${docs.url}/reference/openapi.json`)).json()) as { paths: Paths };
    for (const [id, op] of Object.entries(
      operations as Record<string, { method: string; path: string; tag: string }>,
    )) {
      const samples = reference.paths[op.path]?.[op.method.toLowerCase()]?.["x-codeSamples"];
      expect(samples?.[0], id).toMatchObject({ label: "@entrada/sdk", lang: "typescript" });
      expect(samples?.[0]?.source).toContain(`await client.${op.tag}.${id}(`);
    }
  });

  it("is in get_endpoint (structured and text) and the Markdown mirror", async () => {
    const result = await callTool(docs.url, "get_endpoint", { endpoint: "getEvent" });
    conforms("GetEndpointResult", result.structuredContent);
    const sample = result.structuredContent?.sdkSample as { source: string };
    expect(sample.source).toContain('await client.shop.getEvent({\n  params: { path: { eventId: "evt_');
    const text = result.content[0]?.text ?? "";
    expect(text).toContain("## With the SDK (`@entrada/sdk`)\n\n```ts\nimport { createClient }");
    // First: before the parameters.
    expect(text.indexOf("With the SDK")).toBeLessThan(text.indexOf("Path parameters"));
    const mirror = await (await fetch(`${docs.url}/ai/endpoint-getEvent.md`)).text();
    expect(mirror).toContain(sample.source.trimEnd());
  });

  it("is null for webhook events", async () => {
    const result = await callTool(docs.url, "get_endpoint", { endpoint: "receiveCartCompletedEvent" });
    expect(result.structuredContent?.sdkSample).toBeNull();
    conforms("GetEndpointResult", result.structuredContent);
  });

  it("is left out where a served document's operation is not the SDK's (another path under the same id)", () => {
    const document = structuredClone(contract) as unknown as { paths: Paths };
    const item = document.paths["/shop/v1/discovery/events/{eventId}"] as Record<string, Operation>;
    document.paths["/shop/v2/events/{eventId}"] = item;
    delete document.paths["/shop/v1/discovery/events/{eventId}"];
    const reference = referenceDocument(document, buildSnapshot(document, {})) as { paths: Paths };
    expect(reference.paths["/shop/v2/events/{eventId}"]?.get?.["x-codeSamples"]).toBeUndefined();
    expect(reference.paths["/shop/v1/cart"]?.post?.["x-codeSamples"]?.[0]?.label).toBe("@entrada/sdk");
  });
});
