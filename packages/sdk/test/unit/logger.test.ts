import { describe, expect, it } from "vitest";
import { createClient } from "../../src/index.ts";
import { type LogFields, type LogSink, logger } from "../../src/logger.ts";
import { BASE, CREDENTIALS, fakeApi, json, problem } from "../helpers.ts";

function capture(): LogSink & { lines: Array<[string, string, LogFields]> } {
  const lines: Array<[string, string, LogFields]> = [];
  const at = (level: string) => (message: string, fields: LogFields) =>
    void lines.push([level, message, fields]);
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

describe("logger middleware (@entrada/sdk/logger)", () => {
  it("logs each attempt's outcome with status, duration, attempt and log id", async () => {
    const api = fakeApi((_, i) =>
      i === 0 ? problem(503, "service-unavailable") : json(200, { items: [] }, { "x-log-id": "log_1" }),
    );
    const sink = capture();
    const client = createClient({
      baseUrl: BASE,
      accessToken: "tok",
      fetch: api.fetch,
      retry: { baseDelayMs: 1 },
    });
    client.use(logger({ sink }));
    await client.shop.listVenues();
    expect(sink.lines.map(([level, message]) => [level, message.replace(/\d+ ms/, "N ms")])).toEqual([
      ["warn", `entrada: GET ${BASE}/shop/v1/discovery/venues → 503 in N ms (attempt 1)`],
      ["info", `entrada: GET ${BASE}/shop/v1/discovery/venues → 200 in N ms (attempt 2, log id log_1)`],
    ]);
    expect(sink.lines[1]?.[2]).toMatchObject({
      operationId: "listVenues",
      status: 200,
      attempt: 2,
      logId: "log_1",
    });
  });

  it("at debug shows requests with Authorization, keys, client secrets, tokens and signatures redacted", async () => {
    const api = fakeApi(() => json(200, {}));
    const sink = capture();
    const client = createClient({
      ...CREDENTIALS,
      headers: { "x-api-key": "key_secret" },
      fetch: api.fetch,
      middleware: [logger({ level: "debug", sink })],
    });
    await client.fetch("/assets/v1/tickets/tkt_1.pdf?expires=1&signature=sig_secret");
    await client.sessions.create({
      allowedOrigins: ["https://shop.test"],
      sessionToken: "ses_secret",
    } as never);
    await client.fetch("/x", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "client_secret=s3cret&scope=Shop",
    });
    const written = JSON.stringify(sink.lines);
    for (const secret of [
      "s3cret",
      "key_secret",
      "sig_secret",
      "ses_secret",
      "tok_1",
      btoa("client_demo:s3cret"),
    ])
      expect(written, secret).not.toContain(secret);
    const token = sink.lines.find(([level, , f]) => level === "debug" && f.url.endsWith("/connect/token"));
    expect(token?.[2].headers?.authorization).toBe("[redacted]");
    const asset = sink.lines.find(([level, , f]) => level === "debug" && f.url.includes("signature"));
    expect(asset?.[2].url).toBe(`${BASE}/assets/v1/tickets/tkt_1.pdf?expires=1&signature=%5Bredacted%5D`);
    expect(written).toContain("scope=Shop");
    expect(written).toContain("https://shop.test");
  });

  it("writes only what its level lets through, and failures as errors", async () => {
    const api = fakeApi(() => {
      throw new TypeError("fetch failed");
    });
    const sink = capture();
    const client = createClient({ baseUrl: BASE, accessToken: "tok", fetch: api.fetch, retry: false });
    client.use(logger({ level: "error", sink }));
    await client.shop.listVenues();
    const quiet = createClient({ baseUrl: BASE, accessToken: "tok", fetch: fakeApi().fetch });
    quiet.use(logger({ level: "warn", sink }));
    await quiet.shop.listVenues();
    expect(sink.lines.map(([level, , f]) => [level, f.error])).toEqual([["error", "network"]]);
    expect(() => logger({ level: "loud" as never })).toThrow(/unknown level/);
  });
});
