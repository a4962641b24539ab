import { describe, expect, it } from "vitest";
import {
  EntradaProblemError,
  isProblem,
  OAuthError,
  problemSlug,
  UnexpectedResponseError,
} from "../../src/core/errors.ts";
import { idempotencyKeyProblem, isWriteMethod, newIdempotencyKey } from "../../src/core/idempotency-key.ts";
import { normalizeLocale } from "../../src/core/locale.ts";
import { basicAuthorization } from "../../src/core/oauth.ts";
import { errorFromResponse, isJsonContentType, parseSuccessJson } from "../../src/core/response.ts";
import { retryBudget } from "../../src/core/retry-budget.ts";
import {
  DEFAULT_RETRY,
  isRetryableStatus,
  parseRetryAfter,
  resolveRetryPolicy,
  retryDelay,
} from "../../src/core/retry-policy.ts";
import { createClient } from "../../src/index.ts";

/** A client whose fake server records each request's `Idempotency-Key` and answers 201. */
function keyRecordingClient() {
  const keys: Array<string | null> = [];
  const client = createClient({
    baseUrl: "https://api.test",
    accessToken: "tok",
    fetch: async (request: Request) => {
      keys.push(request.headers.get("idempotency-key"));
      return Response.json({ id: "crt_1", items: [] }, { status: 201 });
    },
  });
  return { client, keys };
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("retry policy", () => {
  it("retries 408, 425, 429 and 5xx, except 501 and 505", () => {
    const retryable = [408, 425, 429, 500, 502, 503, 504, 507, 599];
    const final = [200, 201, 204, 301, 400, 401, 403, 404, 409, 413, 422, 501, 505];
    for (const s of retryable) expect(isRetryableStatus(s), String(s)).toBe(true);
    for (const s of final) expect(isRetryableStatus(s), String(s)).toBe(false);
  });

  it("parses Retry-After as seconds or HTTP-date", () => {
    const now = Date.parse("2026-11-22T00:00:00Z");
    expect(parseRetryAfter("12", now)).toBe(12_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Sun, 22 Nov 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 23:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("-5", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it("uses full jitter below an exponential ceiling", () => {
    const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelay(1, p, undefined, () => 0)).toBe(0);
    expect(retryDelay(1, p, undefined, () => 0.999)).toBe(99);
    expect(retryDelay(3, p, undefined, () => 0.999)).toBe(399);
    expect(retryDelay(10, p, undefined, () => 0.999)).toBe(999);
  });

  it("never waits less than Retry-After, and gives up when it exceeds the cap", () => {
    const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxRetryAfterMs: 5_000 };
    expect(retryDelay(1, p, 3_000, () => 0.5)).toBe(3_000);
    expect(retryDelay(1, p, 5_000, () => 0.5)).toBe(5_000);
    expect(retryDelay(1, p, 5_001, () => 0.5)).toBeUndefined();
  });

  it("merges per-call settings, and false disables retries", () => {
    expect(resolveRetryPolicy(DEFAULT_RETRY, false).maxRetries).toBe(0);
    expect(resolveRetryPolicy(DEFAULT_RETRY, { maxRetries: 5 })).toEqual({ ...DEFAULT_RETRY, maxRetries: 5 });
    expect(resolveRetryPolicy(DEFAULT_RETRY, undefined)).toBe(DEFAULT_RETRY);
  });

  it("spends and refunds a bounded retry budget", () => {
    const budget = retryBudget({ capacity: 3, retryCost: 1, timeoutCost: 2, successRefund: 0.5 });
    expect(budget.tryAcquire(true)).toBe(true);
    expect(budget.tryAcquire()).toBe(true);
    expect(budget.tryAcquire()).toBe(false);
    expect(budget.available).toBe(0);
    budget.recordSuccess();
    budget.recordSuccess();
    expect(budget.tryAcquire()).toBe(true);
    for (let i = 0; i < 100; i++) budget.recordSuccess();
    expect(budget.available).toBe(3);
  });
});

describe("idempotency keys", () => {
  it("treats POST, PUT, PATCH and DELETE as writes", () => {
    expect(["POST", "put", "PATCH", "delete"].every(isWriteMethod)).toBe(true);
    expect(["GET", "HEAD", "OPTIONS"].some(isWriteMethod)).toBe(false);
  });

  it("generates a fresh UUID v4 per write, none for reads", async () => {
    const { client, keys } = keyRecordingClient();
    await client.shop.createCart.orThrow({ body: {} });
    await client.shop.createCart.orThrow({ body: {} });
    await client.shop.listVenues.orThrow();
    await client.shop.listVenues.orThrow({ idempotencyKey: "mine" });
    const [a, b, ...reads] = keys;
    expect(a).toMatch(UUID_V4);
    expect(b).toMatch(UUID_V4);
    expect(a).not.toBe(b);
    expect(reads).toEqual([null, null]);
  });

  it("falls back to getRandomValues where randomUUID is missing (insecure browser contexts)", () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, "randomUUID", { value: undefined, configurable: true });
    try {
      expect(typeof crypto.randomUUID).toBe("undefined");
      const keys = new Set(Array.from({ length: 200 }, () => newIdempotencyKey()));
      expect(keys.size).toBe(200);
      for (const key of keys) expect(key).toMatch(UUID_V4);
    } finally {
      Object.defineProperty(crypto, "randomUUID", { value: original, configurable: true });
    }
    expect(newIdempotencyKey()).toMatch(UUID_V4);
  });

  it("honours caller keys, and null opts out", async () => {
    const { client, keys } = keyRecordingClient();
    await client.shop.createCart.orThrow({ body: {}, idempotencyKey: "order-42" });
    await client.shop.createCart.orThrow({ body: {}, idempotencyKey: null });
    expect(keys).toEqual(["order-42", null]);
  });

  it("rejects keys the header cannot carry", async () => {
    expect(idempotencyKeyProblem("")).toMatch(/non-empty/);
    expect(idempotencyKeyProblem("x".repeat(256))).toMatch(/255/);
    expect(idempotencyKeyProblem("x".repeat(255))).toBeUndefined();
    expect(idempotencyKeyProblem("a b")).toMatch(/visible ASCII/);
    expect(idempotencyKeyProblem('a"b')).toMatch(/visible ASCII/);
    expect(idempotencyKeyProblem("schlüssel")).toMatch(/visible ASCII/);
    const { client, keys } = keyRecordingClient();
    const { error } = await client.shop.createCart({ body: {}, idempotencyKey: "a\nb" });
    expect(error).toMatchObject({ kind: "invalid-argument", argument: "idempotencyKey" });
    expect(error?.message).toMatch(/visible ASCII/);
    expect(keys).toEqual([]);
  });
});

describe("culture tags", () => {
  it("accepts language-REGION and normalizes its case", () => {
    expect(normalizeLocale("de-CH")).toBe("de-CH");
    expect(normalizeLocale("fr-ch")).toBe("fr-CH");
    expect(normalizeLocale("EN-gb")).toBe("en-GB");
    expect(normalizeLocale("es-419")).toBe("es-419");
  });

  it("rejects anything else", () => {
    for (const bad of ["de", "de_CH", "de-CHE", "german", "", "de-CH, fr;q=0.5", "d-CH", "de-C1"]) {
      expect(normalizeLocale(bad), bad).toBeUndefined();
    }
  });
});

describe("OAuth client authentication", () => {
  it("form-urlencodes id and secret before base64 (RFC 6749 §2.3.1)", () => {
    const header = basicAuthorization({ clientId: "client:1", clientSecret: "p@ss wörd" });
    const decoded = atob(header.slice("Basic ".length));
    expect(decoded).toBe("client%3A1:p%40ss+w%C3%B6rd");
  });
});

describe("response classification", () => {
  const ctx = { idempotencyKey: "k1", operationId: "createCart" };

  it("recognises JSON media types", () => {
    expect(isJsonContentType("application/json; charset=utf-8")).toBe(true);
    expect(isJsonContentType("application/problem+json")).toBe(true);
    expect(isJsonContentType("text/html")).toBe(false);
    expect(isJsonContentType(null)).toBe(false);
  });

  it("turns problem details into a typed error keyed by slug", () => {
    const headers = new Headers({ "content-type": "application/problem+json", "retry-after": "7" });
    const body = {
      type: "https://docs.entrada.dev/problems/validation-error",
      title: "Ungültig",
      status: 400,
      detail: "2 Angaben sind ungültig.",
      logId: "log_01JD3Z9B7C2D4E6F8G0H1J2K3M",
      errors: [{ pointer: "/body/quantity", detail: "Muss mindestens 1 sein." }],
    };
    const error = errorFromResponse(headers, JSON.stringify(body), { ...ctx, status: 400 });
    expect(error).toBeInstanceOf(EntradaProblemError);
    const p = error as EntradaProblemError;
    expect(p.kind).toBe("problem");
    expect(p.slug).toBe("validation-error");
    expect(p.status).toBe(400);
    expect(p.logId).toBe("log_01JD3Z9B7C2D4E6F8G0H1J2K3M");
    expect(p.idempotencyKey).toBe("k1");
    expect(p.errors).toEqual(body.errors);
    expect(p.retryAfter).toBe(7);
    expect(p.is("validation-error")).toBe(true);
    expect(isProblem(p, "sold-out")).toBe(false);
    expect(p.name).toBe("EntradaProblemError");
  });

  it("turns RFC 6749 bodies into OAuthError", () => {
    const headers = new Headers({ "content-type": "application/json" });
    const error = errorFromResponse(headers, '{"error":"invalid_client","error_description":"unknown"}', {
      ...ctx,
      status: 401,
    });
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).error).toBe("invalid_client");
    expect((error as OAuthError).errorDescription).toBe("unknown");
  });

  it("keeps the raw body of HTML, garbage and truncated JSON", () => {
    const html = "<html><body>502 Bad Gateway</body></html>";
    for (const [type, body] of [
      ["text/html", html],
      ["application/json", '{"type": "https://docs'],
      ["application/json", '{"message":"nope"}'],
      [null, "\u0000\u0001binary"],
    ] as const) {
      const headers = new Headers(type ? { "content-type": type } : {});
      const error = errorFromResponse(headers, body, { ...ctx, status: 502 });
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect((error as UnexpectedResponseError).body).toBe(body);
      expect(error.status).toBe(502);
    }
  });

  it("parses 2xx JSON and refuses other bodies", () => {
    expect(parseSuccessJson('{"a":1}', "application/json")).toEqual({ ok: true, value: { a: 1 } });
    expect(parseSuccessJson("", null)).toEqual({ ok: true, value: undefined });
    expect(parseSuccessJson("<html>", "text/html").ok).toBe(false);
    expect(parseSuccessJson("{", "application/json").ok).toBe(false);
  });

  it("derives slugs from problem type URIs", () => {
    expect(problemSlug("https://docs.entrada.dev/problems/sold-out")).toBe("sold-out");
    expect(problemSlug("https://example.com/errors/out-of-credit/")).toBe("out-of-credit");
    expect(problemSlug("about:blank")).toBe("about:blank");
  });
});
