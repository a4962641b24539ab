import { AbortedError, NetworkError, responseError, TimeoutError } from "@entrada/sdk/shop";
import { describe, expect, it } from "vitest";
import { errorText } from "../../src/core/error-text";
import { tx } from "../support/texts";

/** The SDK's error for a problem response with this slug and status, as its transport makes it. */
const problem = (slug: string, status: number) =>
  responseError(
    Response.json(
      { type: `https://docs.entrada.dev/problems/${slug}`, title: slug, status },
      { status, headers: { "content-type": "application/problem+json" } },
    ),
  );

describe("errorText: what the buyer reads for an SDK error", () => {
  it.each([
    ["sold-out", 409],
    ["insufficient-capacity", 409],
    ["hold-expired", 409],
    ["cart-locked", 409],
    ["cart-not-ready", 409],
    ["payment-declined", 402],
    ["voucher-unknown", 422],
    ["voucher-expired", 422],
    ["voucher-not-applicable", 422],
    ["voucher-used-up", 409],
    ["validation-error", 400],
    ["not-found", 404],
    ["rate-limited", 429],
  ])("the %s problem reads its own text", async (slug, status) => {
    const text = errorText(await problem(slug, status));
    expect(text).toBe(slug);
    expect(tx(`errors.${text}`)).not.toBe("");
  });

  it("a 401 the SDK could not renew reads session-expired; other problems read generic", async () => {
    expect(errorText(await problem("unauthorized", 401))).toBe("session-expired");
    expect(errorText(await problem("forbidden", 403))).toBe("generic");
    expect(errorText(await problem("internal-error", 500))).toBe("generic");
    // A slug newer than this widget.
    expect(errorText(await problem("seat-map-changed", 409))).toBe("generic");
  });

  it("no answer reads network, none in time reads timeout; anything that is no SDK error reads generic", () => {
    expect(errorText(new NetworkError("fetch failed"))).toBe("network");
    // The attempt's timeout and the call's deadline alike: the shop is slow, the buyer's connection may be fine.
    expect(errorText(new TimeoutError("attempt", 1000))).toBe("timeout");
    expect(errorText(new TimeoutError("total", 5000))).toBe("timeout");
    expect(tx("errors.timeout")).not.toBe(tx("errors.network"));
    expect(errorText(new AbortedError(undefined))).toBe("generic");
    expect(errorText(new TypeError("a custom ShopApi broke its contract"))).toBe("generic");
    expect(errorText(undefined)).toBe("generic");
  });
});
