import { describe, expect, it } from "vitest";
import { createClient } from "../../src/index.ts";
import { BASE, CREDENTIALS, deferred, fakeApi } from "../helpers.ts";

// Every wait of an attempt (backoff, token, fetch, error body) races the attempt's abort, so nothing that ignores
// its signal can hold a call, and one caller giving up never cancels what others share.
describe("waits of an attempt", () => {
  it("ends an attempt whose fetch ignores the abort signal at its timeout", async () => {
    const api = fakeApi(() => new Promise<Response>(() => undefined));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, timeoutMs: 20, retry: false });
    const { error } = await client.shop.listVenues();
    expect(error?.kind === "timeout" && error.scope).toBe("attempt");
    expect(api.calls).toHaveLength(1);
  });

  it("lets one caller give up on the shared token request without cancelling it for the others", async () => {
    const token = deferred<string>();
    let asked = 0;
    const api = fakeApi();
    const client = createClient({
      baseUrl: BASE,
      sessionToken: () => {
        asked++;
        return token.promise;
      },
      fetch: api.fetch,
    });
    const controller = new AbortController();
    const impatient = client.shop.listVenues({ signal: controller.signal });
    const patient = client.shop.listVenues();
    controller.abort(new Error("gave up"));
    expect((await impatient).error).toMatchObject({ kind: "aborted", reason: new Error("gave up") });
    token.resolve("ses_1");
    expect((await patient).error).toBeUndefined();
    expect(asked).toBe(1);
    expect(api.calls.map((c) => c.headers.get("authorization"))).toEqual(["Bearer ses_1"]);
  });
});
