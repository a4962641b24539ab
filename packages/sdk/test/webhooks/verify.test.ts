import { WebhookVerificationError as SwVerificationError, Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import {
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from "../../src/webhooks/index.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const OTHER = "whsec_dGhpcyBpcyBhbm90aGVyIHNlY3JldCBrZXk=";
const NOW = 1_763_769_600; // seconds
const now = NOW * 1000;
const event = {
  type: "ticket.issued",
  timestamp: "2025-11-22T00:00:00Z",
  data: { id: "tkt_1", name: "Zoë – Früh" },
};
const body = JSON.stringify(event);

async function rejection(p: Promise<unknown>): Promise<WebhookVerificationErrorCode> {
  const err = await p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebhookVerificationError);
  return (err as WebhookVerificationError).code;
}

describe("verifyWebhook", () => {
  it("accepts its own signature for string, bytes and ArrayBuffer bodies and returns the parsed event", async () => {
    const headers = await signWebhook({ id: "msg_1", timestamp: NOW, body, secret: SECRET });
    const bytes = new TextEncoder().encode(body);
    expect(await verifyWebhook(body, headers, SECRET, { now })).toEqual(event);
    expect(await verifyWebhook(bytes, headers, SECRET, { now })).toEqual(event);
    expect(await verifyWebhook(bytes.buffer, headers, SECRET, { now })).toEqual(event);
    expect(await verifyWebhook(Buffer.from(body), headers, SECRET, { now: new Date(now) })).toEqual(event);
  });

  it("uses Node's synchronous HMAC where available, not Web Crypto", async () => {
    const subtle = vi.spyOn(crypto.subtle, "sign");
    const headers = await signWebhook({ id: "msg_n", timestamp: NOW, body, secret: SECRET });
    expect(await verifyWebhook(body, headers, SECRET, { now })).toEqual(event);
    expect(subtle).not.toHaveBeenCalled();
    subtle.mockRestore();
  });

  it("reads fetch Headers and Node-style header records in any case", async () => {
    const h = await signWebhook({ id: "msg_2", timestamp: new Date(now), body, secret: SECRET });
    expect(await verifyWebhook(body, new Headers(h), SECRET, { now })).toEqual(event);
    const upper = {
      "Webhook-Id": h["webhook-id"],
      "WEBHOOK-TIMESTAMP": h["webhook-timestamp"],
      "webhook-signature": [h["webhook-signature"]],
    };
    expect(await verifyWebhook(body, upper, SECRET, { now })).toEqual(event);
  });

  it("uses the system clock by default", async () => {
    const headers = await signWebhook({ id: "msg_3", body, secret: SECRET });
    expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
    expect(await verifyWebhook(body, headers, SECRET)).toEqual(event);
  });

  it("enforces the timestamp tolerance in both directions, inclusive at the bound", async () => {
    const at = (offset: number) =>
      signWebhook({ id: "msg_t", timestamp: NOW + offset, body, secret: SECRET });
    expect(await verifyWebhook(body, await at(-300), SECRET, { now })).toEqual(event);
    expect(await verifyWebhook(body, await at(300), SECRET, { now })).toEqual(event);
    expect(await rejection(verifyWebhook(body, await at(-301), SECRET, { now }))).toBe("timestamp_too_old");
    expect(await rejection(verifyWebhook(body, await at(301), SECRET, { now }))).toBe("timestamp_too_new");
    expect(await rejection(verifyWebhook(body, await at(-61), SECRET, { now, toleranceSeconds: 60 }))).toBe(
      "timestamp_too_old",
    );
    expect(await verifyWebhook(body, await at(-3600), SECRET, { now, toleranceSeconds: 7200 })).toEqual(
      event,
    );
  });

  it("fails closed on nonsensical options (NaN clock, tolerance or size limit)", async () => {
    const h = await signWebhook({ id: "msg_nan", timestamp: NOW, body, secret: SECRET });
    expect(await rejection(verifyWebhook(body, h, SECRET, { now: Number.NaN }))).toBe("timestamp_too_old");
    expect(await rejection(verifyWebhook(body, h, SECRET, { now: new Date("nope") }))).toBe(
      "timestamp_too_old",
    );
    expect(await rejection(verifyWebhook(body, h, SECRET, { now, toleranceSeconds: Number.NaN }))).toBe(
      "timestamp_too_old",
    );
    expect(await rejection(verifyWebhook(body, h, SECRET, { now, maxBodyBytes: Number.NaN }))).toBe(
      "payload_too_large",
    );
    expect(await verifyWebhook(body, h, SECRET, { now: now + 10 ** 9, toleranceSeconds: Infinity })).toEqual(
      event,
    );
  });

  it("accepts any of several secrets and any of several signatures (rotation)", async () => {
    const both = await signWebhook({ id: "msg_r", timestamp: NOW, body, secret: [OTHER, SECRET] });
    expect(both["webhook-signature"].split(" ")).toHaveLength(2);
    expect(await verifyWebhook(body, both, SECRET, { now })).toEqual(event);
    expect(await verifyWebhook(body, both, OTHER, { now })).toEqual(event);
    const onlyOld = await signWebhook({ id: "msg_r", timestamp: NOW, body, secret: OTHER });
    expect(await verifyWebhook(body, onlyOld, [SECRET, OTHER], { now })).toEqual(event);
    expect(await rejection(verifyWebhook(body, onlyOld, [SECRET], { now }))).toBe("no_matching_signature");
  });

  it("ignores unknown signature versions", async () => {
    const h = await signWebhook({ id: "msg_v", timestamp: NOW, body, secret: SECRET });
    const sig = h["webhook-signature"].slice(3);
    const mixed = { ...h, "webhook-signature": `v1a,${sig} v2,abc v1,${sig}` };
    expect(await verifyWebhook(body, mixed, SECRET, { now })).toEqual(event);
    const unknownOnly = { ...h, "webhook-signature": `v1a,${sig} v2,${sig}` };
    expect(await rejection(verifyWebhook(body, unknownOnly, SECRET, { now }))).toBe("no_matching_signature");
  });

  it("rejects forged, tampered and truncated deliveries", async () => {
    const h = await signWebhook({ id: "msg_f", timestamp: NOW, body, secret: SECRET });
    const code = (b: string, headers: Record<string, string>, s = SECRET) =>
      rejection(verifyWebhook(b, headers, s, { now }));
    expect(await code(body.replace("tkt_1", "tkt_2"), h)).toBe("no_matching_signature");
    expect(await code(body.slice(0, -1), h)).toBe("no_matching_signature");
    expect(await code(`${body} `, h)).toBe("no_matching_signature");
    expect(await code(body, h, OTHER)).toBe("no_matching_signature");
    expect(await code(body, { ...h, "webhook-id": "msg_other" })).toBe("no_matching_signature");
    expect(await code(body, { ...h, "webhook-timestamp": String(NOW + 1) })).toBe("no_matching_signature");
    expect(await code(body, { ...h, "webhook-signature": h["webhook-signature"].slice(0, -4) })).toBe(
      "no_matching_signature",
    );
    expect(await code(body, { ...h, "webhook-signature": `${h["webhook-signature"]}AAAA` })).toBe(
      "no_matching_signature",
    );
    expect(await code(body, { ...h, "webhook-signature": "v1," })).toBe("no_matching_signature");
  });

  it("parses only after verifying: an unsigned invalid body is a signature error, not a JSON error", async () => {
    const h = await signWebhook({ id: "msg_p", timestamp: NOW, body, secret: SECRET });
    expect(await rejection(verifyWebhook("{not json", h, SECRET, { now }))).toBe("no_matching_signature");
  });

  it("rejects signed bodies that are not a JSON event", async () => {
    for (const bad of ["{not json", "", "null", "[]", '{"data":{}}', '{"type":3}']) {
      const h = await signWebhook({ id: "msg_j", timestamp: NOW, body: bad, secret: SECRET });
      expect(await rejection(verifyWebhook(bad, h, SECRET, { now }))).toBe("invalid_json");
    }
    const invalidUtf8 = new Uint8Array([0x7b, 0xff, 0x7d]);
    const h = await signWebhook({ id: "msg_j", timestamp: NOW, body: invalidUtf8, secret: SECRET });
    expect(await rejection(verifyWebhook(invalidUtf8, h, SECRET, { now }))).toBe("invalid_json");
  });

  it("names missing headers", async () => {
    const h = await signWebhook({ id: "msg_m", timestamp: NOW, body, secret: SECRET });
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
      const partial: Record<string, string> = { ...h };
      delete partial[name];
      expect(await rejection(verifyWebhook(body, partial, SECRET, { now }))).toBe("missing_header");
      expect(await rejection(verifyWebhook(body, { ...h, [name]: "" }, SECRET, { now }))).toBe(
        "missing_header",
      );
    }
    expect(await rejection(verifyWebhook(body, new Headers(), SECRET, { now }))).toBe("missing_header");
  });

  it("rejects timestamps that are not Unix seconds", async () => {
    const h = await signWebhook({ id: "msg_ts", timestamp: NOW, body, secret: SECRET });
    for (const ts of ["abc", "-5", "1.5", "1e9", " 1763769600", "99999999999999999999"]) {
      expect(await rejection(verifyWebhook(body, { ...h, "webhook-timestamp": ts }, SECRET, { now }))).toBe(
        "invalid_timestamp",
      );
    }
  });

  it("rejects signature headers with no '<version>,<signature>' entry", async () => {
    const h = await signWebhook({ id: "msg_s", timestamp: NOW, body, secret: SECRET });
    for (const sig of ["garbage", " ", ",abc", h["webhook-signature"].replace(",", "")]) {
      expect(await rejection(verifyWebhook(body, { ...h, "webhook-signature": sig }, SECRET, { now }))).toBe(
        "malformed_signature",
      );
    }
  });

  it("rejects oversized bodies before hashing, counting UTF-8 bytes", async () => {
    const h = await signWebhook({ id: "msg_big", timestamp: NOW, body, secret: SECRET });
    const code = (b: string | Uint8Array, max?: number) =>
      rejection(verifyWebhook(b, h, SECRET, max === undefined ? { now } : { now, maxBodyBytes: max }));
    expect(await code("x".repeat(1024 * 1024 + 1))).toBe("payload_too_large");
    expect(await code(new Uint8Array(1024 * 1024 + 1))).toBe("payload_too_large");
    // 40 code units but 120 UTF-8 bytes.
    expect(await code("€".repeat(40), 100)).toBe("payload_too_large");
    expect(await code("€".repeat(33), 100)).toBe("no_matching_signature");
    const big = JSON.stringify({ ...event, data: { pad: "y".repeat(2000) } });
    const hb = await signWebhook({ id: "msg_big", timestamp: NOW, body: big, secret: SECRET });
    expect(await rejection(verifyWebhook(big, hb, SECRET, { now, maxBodyBytes: 2000 }))).toBe(
      "payload_too_large",
    );
    expect((await verifyWebhook(big, hb, SECRET, { now, maxBodyBytes: 4000 })).type).toBe("ticket.issued");
  });

  it("rejects unusable secrets and bodies with typed errors", async () => {
    const h = await signWebhook({ id: "msg_x", timestamp: NOW, body, secret: SECRET });
    for (const s of ["whsec_!!!", "whsec_", "", [] as string[], [42 as unknown as string]]) {
      expect(await rejection(verifyWebhook(body, h, s, { now }))).toBe("invalid_secret");
    }
    expect(await rejection(signWebhook({ id: "msg_x", body, secret: [] }))).toBe("invalid_secret");
    await expect(signWebhook({ id: "msg 1", body, secret: SECRET })).rejects.toThrow(TypeError);
    await expect(signWebhook({ id: "", body, secret: SECRET })).rejects.toThrow(TypeError);
    expect(await rejection(verifyWebhook(event as unknown as string, h, SECRET, { now }))).toBe(
      "invalid_body",
    );
  });

  it("never crashes on random garbage: every failure is a WebhookVerificationError", async () => {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const pieces = [
      "v1,",
      "v1",
      ",",
      " ",
      "=",
      "whsec_",
      "\u0000",
      "é",
      "1763769600",
      "msg_",
      "{",
      "}",
      "AAAA",
    ];
    const junk = () =>
      Array.from({ length: Math.floor(rand() * 8) }, () => pieces[Math.floor(rand() * pieces.length)]).join(
        "",
      );
    for (let i = 0; i < 300; i++) {
      const headers = {
        "webhook-id": junk(),
        "webhook-timestamp": rand() < 0.5 ? String(NOW) : junk(),
        "webhook-signature": junk(),
      };
      await rejection(verifyWebhook(junk(), headers, rand() < 0.8 ? SECRET : junk(), { now }));
    }
  });
});

describe("interoperability with the standardwebhooks package", () => {
  const bodies = [
    body,
    JSON.stringify({ type: "cart.locked", timestamp: "x", data: { emoji: "🎟️", quote: "it's" } }),
  ];

  it("verifies what standardwebhooks signs", async () => {
    const wh = new Webhook(SECRET);
    for (const b of bodies) {
      const ts = new Date();
      const headers = {
        "webhook-id": "msg_sw",
        "webhook-timestamp": String(Math.floor(ts.getTime() / 1000)),
        "webhook-signature": wh.sign("msg_sw", ts, b),
      };
      expect(await verifyWebhook(b, headers, SECRET)).toEqual(JSON.parse(b));
      expect(await verifyWebhook(Buffer.from(b), headers, SECRET)).toEqual(JSON.parse(b));
    }
  });

  it("produces signatures that standardwebhooks accepts, and rejects when they are tampered", async () => {
    for (const secret of [
      SECRET,
      OTHER,
      `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`,
    ]) {
      const wh = new Webhook(secret);
      for (const b of bodies) {
        const headers = await signWebhook({ id: "msg_ours", body: b, secret });
        expect(wh.verify(b, headers)).toEqual(JSON.parse(b));
        expect(() => wh.verify(`${b} `, headers)).toThrow(SwVerificationError);
      }
    }
  });

  it("signs rotation headers that standardwebhooks accepts with either secret", async () => {
    const headers = await signWebhook({ id: "msg_rot", body, secret: [SECRET, OTHER] });
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(event);
    expect(new Webhook(OTHER).verify(body, headers)).toEqual(event);
  });
});
