/**
 * The node transport reports every header sent more than once; the pipeline's preamble refuses only those that must
 * come once (`SINGLETON_HEADERS` in core/target.ts, the one list).
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/node/index.ts";

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, webhooks: false, docs: false, biAssistant: false });
});
afterAll(() => mock.close());

/** A GET with headers as node:http sends them: an array value goes as that many header lines. */
function get(path: string, headers: Record<string, string | string[]>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(mock.url);
    request({ host: url.hostname, port: url.port, path, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on("error", reject)
      .end();
  });
}

describe("headers sent more than once", () => {
  it("lets one that may repeat through and refuses one that must come once, naming it", async () => {
    const path = "/shop/v1/discovery/events";
    // Past the preamble: the next check that applies is the missing token.
    expect((await get(path, { accept: ["application/json", "*/*"] })).status).toBe(401);
    const refused = await get(path, { "idempotency-key": ["key-1", "key-2"] });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({
      type: "https://docs.entrada.dev/problems/malformed-request",
      errors: [{ pointer: "/header/idempotency-key" }],
    });
  });
});
