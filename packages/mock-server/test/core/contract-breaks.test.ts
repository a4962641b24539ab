/**
 * Regressions for contract breaks an OpenAPI fuzzer found (schemathesis, every operation): each request runs
 * through the whole engine with strict response validation, so an answer that drifts from the contract is a 500.
 */

import { describe, expect, it } from "vitest";
import { ajvSchemaCompiler } from "../../src/compiler/ajv.ts";
import type { MockResponse } from "../../src/core/types.ts";
import { createEntradaMock } from "../../src/index.ts";
import { mockBody, mockProblem } from "../helpers.ts";

const BASE = "http://mock.test";

function setup() {
  const core = createEntradaMock({
    validateResponses: "strict",
    rateLimit: false,
    schemaCompiler: ajvSchemaCompiler,
  });
  const send = (
    method: string,
    path: string,
    init: { headers?: Record<string, string>; json?: unknown; form?: string } = {},
  ): Promise<MockResponse> => {
    const headers: Record<string, string> = { ...init.headers };
    let body: Uint8Array | null = null;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = new TextEncoder().encode(JSON.stringify(init.json));
    } else if (init.form !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new TextEncoder().encode(init.form);
    }
    return core.handle({ method, url: `${BASE}${path}`, headers, body });
  };
  const token = async (): Promise<Record<string, string>> => {
    const res = await send("POST", "/connect/token", {
      headers: { authorization: `Basic ${btoa("entrada-demo:demo-secret")}` },
      form: "grant_type=client_credentials",
    });
    const { access_token } = mockBody(res, "createToken");
    return { authorization: `Bearer ${access_token}` };
  };
  return { core, send, token };
}

const json = (r: MockResponse) => JSON.parse(String(r.body));

describe("contract breaks found by fuzzing", () => {
  it("lists a gate's admissions in the scan shape and never its exits", async () => {
    const { core, send, token } = setup();
    const auth = await token();
    const gates = mockBody(await send("GET", "/entrance/v1/gates", { headers: auth }), "listGates");
    const gate = gates.items.find((g) => g.direction === "both");
    expect(gate).toBeDefined();
    const path = `/entrance/v1/gates/${gate?.id}`;
    const exit = await send("POST", `${path}/exits`, { headers: auth, json: { quicode: "UNKNOWN-CODE" } });
    expect([exit.status, json(exit).result]).toEqual([201, "rejected"]);
    const scan = await send("POST", `${path}/scans`, { headers: auth, json: { quicode: "UNKNOWN-CODE" } });
    expect([scan.status, json(scan).result]).toEqual([201, "denied"]);
    const list = await send("GET", `${path}/scans`, { headers: auth });
    expect(list.status).toBe(200);
    const { items } = mockBody(list, "listGateScans");
    expect(items.map((s) => s.id)).toEqual([json(scan).id]);
    expect(items[0]?.scannedAt).toBeTypeOf("string");
    expect(core.responseViolations).toEqual([]);
  });

  it("answers a malformed Accept-Language at the token endpoint in OAuth JSON, not problem+json", async () => {
    const { send } = setup();
    const res = await send("POST", "/connect/token", {
      headers: { authorization: `Basic ${btoa("entrada-demo:demo-secret")}`, "accept-language": "x;;q=9" },
      form: "grant_type=client_credentials",
    });
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = json(res);
    expect(body.error).toBe("invalid_request");
    expect(body.error_description).toMatch(/^\/header\/accept-language: /);
    // Everywhere else it stays the localized validation problem.
    const other = await send("GET", "/shop/v1/discovery/events", {
      headers: { "accept-language": "x;;q=9" },
    });
    expect(other.headers["content-type"]).toBe("application/problem+json");
    expect(json(other).errors[0].pointer).toBe("/header/accept-language");
  });

  it("gives submitSurveyResponse's 422 for a reused Idempotency-Key the errors its schema requires", async () => {
    const { core, send, token } = setup();
    const headers = { ...(await token()), "idempotency-key": "survey-key-1", "accept-language": "en-GB" };
    const path = "/survey/v1/surveys/srv_festival/responses";
    const answers = { qst_festSource: "social", qst_festNewsletter: false };
    expect((await send("POST", path, { headers, json: { answers } })).status).toBe(201);
    const reused = await send("POST", path, {
      headers,
      json: { answers: { ...answers, qst_festNewsletter: true } },
    });
    expect(reused.status).toBe(422);
    expect(json(reused)).toMatchObject({
      type: "https://docs.entrada.dev/problems/idempotency-key-reused",
      errors: [{ pointer: "/header/idempotency-key", detail: expect.stringContaining("different body") }],
    });
    expect(core.responseViolations).toEqual([]);
  });

  it("percent-encodes a newline (and %) in an errors[].pointer, so pointers stay single-line", async () => {
    const { core, send, token } = setup();
    const auth = await token();
    const res = await send("POST", "/shop/v1/cart", {
      headers: auth,
      json: { currency: "CHF", "bad\nname": 1, "100%": 2 },
    });
    expect(res.status).toBe(400);
    const pointers = (mockProblem(res).errors ?? []).map((e) => e.pointer).sort();
    expect(pointers).toEqual(["/body/100%25", "/body/bad%0Aname"]);
    expect(core.responseViolations).toEqual([]);
  });
});

describe("signed asset links", () => {
  it("verifies ?signature= whenever it is present, also next to a valid bearer token", async () => {
    const { send, token } = setup();
    const auth = await token();
    // With a bearer alone the ticket PDF answers (404 for an unknown ticket: auth passed).
    const plain = await send("GET", "/assets/v1/tickets/tkt_01JD3Y7B2C3D4E5F6G7H8J9K0M.pdf", {
      headers: auth,
    });
    expect(plain.status).toBe(404);
    const forged = await send(
      "GET",
      "/assets/v1/tickets/tkt_01JD3Y7B2C3D4E5F6G7H8J9K0M.pdf?expires=4102444800&signature=!!bad",
      { headers: auth },
    );
    expect(forged.status).toBe(401);
    expect(json(forged).reason).toBe("link-invalid");
  });
});
