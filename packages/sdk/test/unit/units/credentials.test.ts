import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY } from "../../../src/core/retry-policy.ts";
import type { AuthProvider } from "../../../src/core/types.ts";
import { bearer } from "../../../src/core/units/bearer.ts";
import { credentials } from "../../../src/core/units/credentials.ts";
import { retry } from "../../../src/core/units/retry.ts";
import { recorder, run, URL_ } from "./harness.ts";

/** Hands out tok_1, tok_2, … ; `invalidate` drops the current one. */
function tokens(): AuthProvider & { issued: number } {
  let current: string | undefined;
  const auth = {
    issued: 0,
    peek: () => current,
    get: async () => {
      current = `tok_${++auth.issued}`;
      return current;
    },
    invalidate(token: string) {
      if (token === current) current = undefined;
      return true;
    },
  };
  return auth;
}

const origin = "https://api.test.entrada.dev/";
const rejected = () =>
  new Response("{}", { status: 401, headers: { "www-authenticate": 'Bearer error="invalid_token"' } });
// As in the chain: `retry` between them keeps the call's body for the repeat.
const both = (auth: AuthProvider) => (next: Parameters<ReturnType<typeof bearer>>[0]) =>
  credentials(auth, origin)(retry({ ...DEFAULT_RETRY, maxRetries: 0 }, undefined)(bearer()(next)));

describe("credentials and bearer units", () => {
  it("sends a bearer token to the API's origin only, and keeps a request's own Authorization", async () => {
    const auth = tokens();
    const { send, requests } = recorder();
    await run(both(auth), send).result;
    await run(both(auth), send, { request: new Request("https://elsewhere.test/x") }).result;
    await run(both(auth), send, { request: new Request(URL_, { headers: { authorization: "Basic abc" } }) })
      .result;
    expect(requests.map((r) => r.headers.get("authorization"))).toEqual(["Bearer tok_1", null, "Basic abc"]);
  });

  it("after a 401 invalid_token drops that token and sends the call once more with a new one (body included)", async () => {
    const auth = tokens();
    const { send, requests } = recorder((_, i) => (i === 0 ? rejected() : new Response("ok")));
    const request = new Request(URL_, { method: "POST", body: '{"a":1}' });
    const response = await run(both(auth), send, { request }).result;
    expect(response.status).toBe(200);
    expect(requests.map((r) => r.headers.get("authorization"))).toEqual(["Bearer tok_1", "Bearer tok_2"]);
    expect(await requests[1]?.text()).toBe('{"a":1}');
  });

  it("does not renew after a second 401, nor for a challenge naming another error", async () => {
    const auth = tokens();
    const always = recorder(rejected);
    expect((await run(both(auth), always.send).result).status).toBe(401);
    expect(always.requests).toHaveLength(2);
    const scope = recorder(
      () =>
        new Response("", {
          status: 401,
          headers: { "www-authenticate": 'Bearer error="insufficient_scope"' },
        }),
    );
    await run(both(tokens()), scope.send).result;
    expect(scope.requests).toHaveLength(1);
  });

  it("turns a token function's failure into an OAuth error (token_unavailable), nothing sent", async () => {
    const auth: AuthProvider = {
      peek: () => undefined,
      get: () => Promise.reject(new Error("backend said no")),
      invalidate: () => true,
    };
    const { send, requests } = recorder();
    await expect(run(both(auth), send).result).rejects.toMatchObject({
      kind: "oauth",
      error: "token_unavailable",
      errorDescription: "backend said no",
    });
    expect(requests).toEqual([]);
  });
});
