import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../../src/core/errors.ts";
import { clientHeaders } from "../../../src/core/units/client-headers.ts";
import { idempotency } from "../../../src/core/units/idempotency.ts";
import { language } from "../../../src/core/units/language.ts";
import { recorder, run, URL_ } from "./harness.ts";

describe("language unit", () => {
  it("sends the call's culture, else the request's own header, else the client's", async () => {
    const { send, requests } = recorder();
    await run(language("de-CH"), send, { options: { locale: "fr-ch" as never } }).result;
    await run(language("de-CH"), send, {
      request: new Request(URL_, { headers: { "accept-language": "it-CH" } }),
    }).result;
    await run(language("de-CH"), send).result;
    await run(language(undefined), send).result;
    expect(requests.map((r) => r.headers.get("accept-language"))).toEqual(["fr-CH", "it-CH", "de-CH", null]);
  });

  it("refuses a malformed culture before anything is sent", async () => {
    const { send, requests } = recorder();
    await expect(
      run(language("de-CH"), send, { options: { locale: "de_CH" as never } }).result,
    ).rejects.toThrow(InvalidArgumentError);
    expect(requests).toEqual([]);
  });
});

describe("client headers unit", () => {
  it("fills in the client's headers the request lacks and sets the User-Agent", async () => {
    const { send, requests } = recorder();
    const request = new Request(URL_, { headers: { "x-gateway": "mine" } });
    await run(
      clientHeaders(new Headers({ "x-gateway": "client", "x-team": "t" }), "entrada-sdk-js/0 x"),
      send,
      {
        request,
      },
    ).result;
    const sent = requests[0]?.headers;
    expect([sent?.get("x-gateway"), sent?.get("x-team"), sent?.get("user-agent")]).toEqual([
      "mine",
      "t",
      "entrada-sdk-js/0 x",
    ]);
  });
});

describe("idempotency unit", () => {
  const post = () => new Request(URL_, { method: "POST", body: "{}" });

  it("gives a write a new key, keeps the request's own, takes the call's, and none with null", async () => {
    const { send, requests } = recorder();
    const fresh = run(idempotency(), send, { request: post() });
    await fresh.result;
    const own = new Request(URL_, { method: "POST", body: "{}", headers: { "idempotency-key": "own" } });
    await run(idempotency(), send, { request: own }).result;
    await run(idempotency(), send, { request: post(), options: { idempotencyKey: "order-42" } }).result;
    const none = run(idempotency(), send, { request: post(), options: { idempotencyKey: null } });
    await none.result;
    await run(idempotency(), send).result;
    const keys = requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(fresh.state.idempotencyKey).toBe(keys[0]);
    expect(keys.slice(1)).toEqual(["own", "order-42", null, null]);
    expect(none.state.idempotencyKey).toBeUndefined();
  });

  it("refuses a key the header cannot carry", async () => {
    const { send, requests } = recorder();
    const sent = run(idempotency(), send, { request: post(), options: { idempotencyKey: "a b" } }).result;
    await expect(sent).rejects.toMatchObject({ kind: "invalid-argument", argument: "idempotencyKey" });
    expect(requests).toEqual([]);
  });
});
