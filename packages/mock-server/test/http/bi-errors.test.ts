import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { responseViolations } from "../../src/core/pipeline/check-response.ts";
import { type Api, bearer, startApi } from "../helpers.ts";

interface ODataErrorBody {
  error: {
    code: string;
    message: string;
    target: string | null;
    details: Array<{ code: string; message: string; target: string | null }>;
    innererror?: { logId: string };
  };
}

let api: Api;
let limited: Api;
let token: string;

beforeAll(async () => {
  api = await startApi();
  limited = await startApi({ rateLimit: { limit: 2, windowSeconds: 60 } });
  token = await api.token("Shop");
});
afterAll(async () => {
  await api.close();
  await limited.close();
});

/** An OData JSON error (OData JSON Format §21), never problem+json, with OData-Version and the log id. */
async function expectODataError(response: Response, status: number, code: string): Promise<ODataErrorBody> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json");
  expect(response.headers.get("odata-version")).toBe("4.0");
  const body = (await response.json()) as ODataErrorBody & { type?: string };
  expect(body.type).toBeUndefined();
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(Array.isArray(body.error.details)).toBe(true);
  expect(body.error).toHaveProperty("target");
  expect(body.error.innererror?.logId).toBe(response.headers.get("x-log-id"));
  return body;
}

describe("BI feed: the engine's own errors are OData JSON", () => {
  it("401 without a token keeps WWW-Authenticate", async () => {
    const response = await api.fetch("/bi/v1/odata/Orders");
    const body = await expectODataError(response, 401, "Unauthorized");
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="entrada"/);
    expect(body.error.target).toBeNull();
    // The service document and $metadata too.
    await expectODataError(await api.fetch("/bi/v1/odata"), 401, "Unauthorized");
    await expectODataError(await api.fetch("/bi/v1/odata/$metadata"), 401, "Unauthorized");
  });

  it("403 for a token without the Shop scope", async () => {
    const terp = await api.token("TERP");
    const response = await api.fetch("/bi/v1/odata/Tickets", { headers: bearer(terp) });
    await expectODataError(response, 403, "Forbidden");
    expect(response.headers.get("www-authenticate")).toMatch(/insufficient_scope/);
  });

  it("400 for an invalid parameter, with the option as target, localized", async () => {
    const response = await api.fetch("/bi/v1/odata/Orders?$top=many", {
      headers: bearer(token, { "accept-language": "fr-CH" }),
    });
    const body = await expectODataError(response, 400, "BadRequest");
    expect(body.error.target).toBe("$top");
    expect(body.error.details[0]?.target).toBe("$top");
    expect(response.headers.get("content-language")).toBe("fr-CH");
    const unknown = await api.fetch("/bi/v1/odata/Orders?region=north", { headers: bearer(token) });
    expect((await expectODataError(unknown, 400, "BadRequest")).error.target).toBe("region");
  });

  it("404 for an unknown entity set", async () => {
    const response = await api.fetch("/bi/v1/odata/Customers", { headers: bearer(token) });
    await expectODataError(response, 404, "NotFound");
    // Outside the feed, problems stay problem+json.
    const shop = await api.fetch("/shop/v1/nothing-here", { headers: bearer(token) });
    expect(shop.headers.get("content-type")).toBe("application/problem+json");
  });

  it("429 when rate limited keeps Retry-After", async () => {
    const limitedToken = await limited.token("Shop");
    let response = await limited.fetch("/bi/v1/odata/Orders", { headers: bearer(limitedToken) });
    for (let i = 0; i < 3 && response.status !== 429; i++)
      response = await limited.fetch("/bi/v1/odata/Orders", { headers: bearer(limitedToken) });
    await expectODataError(response, 429, "TooManyRequests");
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("valid OData system query options the feed does not implement reach it and answer 501", async () => {
    for (const [option, value] of [
      ["$expand", "Tickets"],
      ["$apply", "topcount(5,TotalAmount)"],
      ["$search", "zurich"],
      ["$compute", "Total mul 2 as Double"],
    ] as const) {
      const response = await api.fetch(`/bi/v1/odata/Orders?${option}=${encodeURIComponent(value)}`, {
        headers: bearer(token),
      });
      const body = await expectODataError(response, 501, "NotImplemented");
      expect(body.error.target).toBe(option);
    }
    // An unknown `$` option is the feed's own 400 (not the engine's), still OData.
    const bogus = await api.fetch("/bi/v1/odata/Orders?$bogus=1", { headers: bearer(token) });
    expect((await expectODataError(bogus, 400, "BadRequest")).error.target).toBe("$bogus");
  });

  it("406 when Accept allows none of the feed's types: an OData error naming them, documented by the contract", async () => {
    for (const [path, served] of [
      ["/bi/v1/odata/Orders", "application/json"],
      ["/bi/v1/odata/$metadata", "application/xml"],
      ["/bi/v1/odata/Orders/$count", "text/plain"],
    ] as const) {
      const response = await api.fetch(path, { headers: bearer(token, { accept: "text/csv" }) });
      const text = await response.clone().text();
      const body = await expectODataError(response, 406, "NotAcceptable");
      expect(body.error.target).toBe("accept");
      expect(body.error.details).toEqual([
        { code: "NotAcceptable", message: expect.stringContaining(served), target: "accept" },
      ]);
      // The contract documents it: status, media type and body conform.
      const match = api.mock.core.router.match("GET", path);
      if (match.kind !== "found") throw new Error(`${path} is not routed`);
      const violations = responseViolations(api.mock.core, match.route.op, {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: text,
      });
      expect(violations).toEqual([]);
    }
    // A range that covers a served type is fine; `q=0` is a refusal.
    const wildcard = await api.fetch("/bi/v1/odata/Orders?$top=1", {
      headers: bearer(token, { accept: "application/*" }),
    });
    expect(wildcard.status).toBe(200);
    const refused = await api.fetch("/bi/v1/odata/Orders?$top=1", {
      headers: bearer(token, { accept: "application/json;q=0, text/html" }),
    });
    expect(refused.status).toBe(406);
  });

  it("$format takes precedence over Accept (OData Part 1 §8.2.1): JSON is served, another format is a 501", async () => {
    const json = await api.fetch("/bi/v1/odata/Orders?$top=1&$format=json", {
      headers: bearer(token, { accept: "text/csv" }),
    });
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    const metadata = await api.fetch("/bi/v1/odata/$metadata?$format=json", {
      headers: bearer(token, { accept: "application/xml;q=0, text/csv" }),
    });
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get("content-type")).toMatch(/^application\/json/);
    const xml = await api.fetch("/bi/v1/odata/Orders?$format=xml", {
      headers: bearer(token, { accept: "text/csv" }),
    });
    expect((await expectODataError(xml, 501, "NotImplemented")).error.target).toBe("$format");
  });
});

describe("BI feed: the engine's own errors follow the feed's culture (English for no header or *)", () => {
  const german = /[äöüÄÖÜ«»]|Zugriff|Bitte|Erlaubte|Dieser Vorgang/;

  it("401, 400, 404 and 406 with Accept-Language: * or none are en-GB, like the feed's rows", async () => {
    for (const language of ["*", undefined, "*;q=0.5, xx"]) {
      const lang: Record<string, string> = language === undefined ? {} : { "accept-language": language };
      const answers = [
        [await api.fetch("/bi/v1/odata/Orders", { headers: lang }), 401],
        [await api.fetch("/bi/v1/odata/Orders?$top=many", { headers: bearer(token, lang) }), 400],
        [await api.fetch("/bi/v1/odata/Customers", { headers: bearer(token, lang) }), 404],
        [
          await api.fetch("/bi/v1/odata/Orders", { headers: bearer(token, { ...lang, accept: "text/csv" }) }),
          406,
        ],
      ] as const;
      for (const [response, status] of answers) {
        expect(response.status).toBe(status);
        expect(response.headers.get("content-language"), `${status} ${language}`).toBe("en-GB");
        const body = (await response.json()) as ODataErrorBody;
        expect(body.error.message, `${status} ${language}`).not.toMatch(german);
      }
    }
    // The handler's own rows and errors already were English: one language per response, whoever asks.
    const rows = await api.fetch("/bi/v1/odata/Orders?$top=1", {
      headers: bearer(token, { "accept-language": "*" }),
    });
    expect(rows.headers.get("content-language")).toBe("en-GB");
  });

  it("a named culture is honoured for the engine's errors too, and a malformed header is a 400 in en-GB", async () => {
    const german401 = await api.fetch("/bi/v1/odata/Orders", { headers: { "accept-language": "de-CH" } });
    expect(german401.headers.get("content-language")).toBe("de-CH");
    const french406 = await api.fetch("/bi/v1/odata/Orders", {
      headers: bearer(token, { "accept-language": "fr", accept: "text/csv" }),
    });
    expect(french406.headers.get("content-language")).toBe("fr-CH");
    expect(((await french406.json()) as ODataErrorBody).error.message).toContain("l'en-tête Accept");
    const malformed = await api.fetch("/bi/v1/odata/Orders", {
      headers: bearer(token, { "accept-language": "de_CH" }),
    });
    const body = await expectODataError(malformed, 400, "BadRequest");
    expect(body.error.target).toBe("accept-language");
    expect(malformed.headers.get("content-language")).toBe("en-GB");
    // Outside the feed, `*` keeps the API-wide default (de-CH).
    const shop = await api.fetch("/shop/v1/discovery/events", { headers: { "accept-language": "*" } });
    expect(shop.headers.get("content-language")).toBe("de-CH");
  });
});
