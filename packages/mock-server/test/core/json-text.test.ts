/**
 * Kept JSON texts (`JsonText`): a kept page's UTF-8 bytes are encoded once and written by the node server as they
 * are, only while the response still carries that text (a HEAD drops it); over HTTP the bytes and Content-Length
 * match the text, non-ASCII letters included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonText, keptBytes } from "../../src/core/json-text.ts";
import type { MockRequest, MockResponse } from "../../src/core/types.ts";
import { createEntradaMock } from "../../src/index.ts";
import { type Api, bearer, startApi } from "../helpers.ts";

describe("kept JSON text", () => {
  it("encodes its bytes once, as UTF-8", () => {
    const json = JsonText.of({ name: "Théâtre du Léman", city: "Zürich" });
    expect(json.bytes).toBe(json.bytes);
    expect(new TextDecoder().decode(json.bytes)).toBe(json.text);
    expect(json.bytes.byteLength).toBeGreaterThan(json.text.length);
  });

  it("hands the transport a page's bytes only while the response carries its text", async () => {
    const core = createEntradaMock({ rateLimit: false });
    const token = JSON.parse(
      String(
        (
          await core.handle({
            method: "POST",
            url: "http://mock/connect/token",
            headers: {
              authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
              "content-type": "application/x-www-form-urlencoded",
            },
            body: new TextEncoder().encode("grant_type=client_credentials&scope=Shop"),
          })
        ).body,
      ),
    ).access_token as string;
    const request = (method: string): MockRequest => ({
      method,
      url: "http://mock/shop/v1/discovery/events",
      headers: { authorization: `Bearer ${token}`, "accept-language": "fr-CH" },
      body: null,
    });
    const first: MockResponse = await core.handle(request("GET"));
    const again: MockResponse = await core.handle(request("GET"));
    const bytes = keptBytes(first);
    expect(bytes).toBeDefined();
    expect(new TextDecoder().decode(bytes)).toBe(first.body);
    expect(keptBytes(again)).toBe(bytes);
    // Otherwise a plain response: copies, JSON and clones carry status, headers and body only.
    expect(Object.keys(first).sort()).toEqual(["body", "headers", "status"]);
    expect(keptBytes({ ...first })).toBeUndefined();
    expect(structuredClone(first)).toEqual({ status: 200, headers: first.headers, body: first.body });
    // A HEAD answers without the body: nothing to write.
    const head = await core.handle(request("HEAD"));
    expect(head.body).toBeNull();
    expect(keptBytes(head)).toBeUndefined();
    // A body replaced after the handler answered is not the kept text any more.
    again.body = "{}";
    expect(keptBytes(again)).toBeUndefined();
    // A body rendered for this request only (with include) is not kept.
    const included = await core.handle({
      ...request("GET"),
      url: "http://mock/shop/v1/discovery/events?include=slots",
    });
    expect(included.status).toBe(200);
    expect(keptBytes(included)).toBeUndefined();
  });
});

describe("a kept page over HTTP", () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it("sends the same bytes again with the right Content-Length, accents included", async () => {
    const headers = bearer(await api.token(), { "accept-language": "fr-CH" });
    const bodies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await api.fetch("/shop/v1/discovery/events", { headers });
      expect(response.status).toBe(200);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(Number(response.headers.get("content-length"))).toBe(bytes.byteLength);
      bodies.push(new TextDecoder().decode(bytes));
    }
    expect(bodies[1]).toBe(bodies[0]);
    expect(bodies[2]).toBe(bodies[0]);
    expect(bodies[0]).toMatch(/Théâtre du Léman/);
    const head = await api.fetch("/shop/v1/discovery/events", { method: "HEAD", headers });
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });
});
