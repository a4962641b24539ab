import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
      ["$apply", "groupby((EventId))"],
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
});
