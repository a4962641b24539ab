import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";

// Browsers, Deno and edge workers have no `process.getBuiltinModule`: the verifier must then run on Web Crypto
// alone and produce the same signatures.
describe("Web Crypto path (no node:crypto available)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  async function load() {
    vi.resetModules();
    vi.spyOn(process, "getBuiltinModule").mockReturnValue(undefined as never);
    const sign = vi.spyOn(crypto.subtle, "sign");
    const mod = await import("../../src/webhooks/index.ts");
    return { ...mod, sign };
  }

  it("signs and verifies with crypto.subtle, caching the imported key per secret", async () => {
    const { signWebhook, verifyWebhook, sign } = await load();
    const importKey = vi.spyOn(crypto.subtle, "importKey");
    const secret = "whsec_c3VidGxlLW9ubHktc2VjcmV0LWtleS0xMjM0";
    const body = JSON.stringify({ type: "payment.succeeded", timestamp: "t", data: { amount: 1200 } });
    const headers = await signWebhook({ id: "msg_s", body, secret });
    expect(await verifyWebhook(body, headers, secret)).toMatchObject({ type: "payment.succeeded" });
    expect(await verifyWebhook(new TextEncoder().encode(body), headers, secret)).toMatchObject({
      data: { amount: 1200 },
    });
    expect(sign).toHaveBeenCalledTimes(3);
    expect(importKey).toHaveBeenCalledTimes(1);
  });

  it("interoperates with standardwebhooks in both directions", async () => {
    const { signWebhook, verifyWebhook, WebhookVerificationError, sign } = await load();
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const wh = new Webhook(secret);
    const body = JSON.stringify({ type: "entrance.admitted", timestamp: "t", data: { gate: "Nord – Süd" } });
    const ours = await signWebhook({ id: "msg_i", body, secret });
    expect(wh.verify(body, ours)).toEqual(JSON.parse(body));
    const ts = new Date();
    const theirs = {
      "webhook-id": "msg_j",
      "webhook-timestamp": String(Math.floor(ts.getTime() / 1000)),
      "webhook-signature": wh.sign("msg_j", ts, body),
    };
    expect(await verifyWebhook(body, theirs, secret)).toEqual(JSON.parse(body));
    await expect(verifyWebhook(`${body}x`, theirs, secret)).rejects.toBeInstanceOf(WebhookVerificationError);
    expect(sign).toHaveBeenCalled();
  });
});
