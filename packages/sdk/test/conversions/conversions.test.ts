import { createHash } from "node:crypto";
import document from "@entrada/openapi/openapi.json" with { type: "json" };
import { describe, expect, it } from "vitest";
// The shop widget's reader of the visitor's GA4 ids (what it passes with the checkout): the same client_id.
import { ga4IdsFromCookies } from "../../../shop-widget/src/core/analytics-ga4-ids.ts";
// The shop widget's own money → GA4 value rule, so the test compares against the browser side, not a copy.
import { moneyValue } from "../../../shop-widget/src/core/format.ts";
// The widget's browser `purchase` of a paid order: compared with the server's, built from the same order.
import { purchaseParams } from "../../../shop-widget/src/core/purchase-analytics.ts";
import {
  GA4_LIMITS,
  type Ga4Item,
  ga4FromWebhook,
  metaFromWebhook,
  normalizePhone,
  spreadDiscount,
  validateGa4Payload,
  validateMetaPayload,
} from "../../src/conversions/index.ts";
import type { WebhookEventOf } from "../../src/webhooks/index.ts";

/** The contract's published example payload of a kind (the fixture every receiver is written against). */
function example<T extends "cart.completed" | "entrance.admitted">(kind: T): WebhookEventOf<T> {
  const hooks = (document as unknown as { webhooks: Record<string, { post: unknown }> }).webhooks;
  const post = hooks[kind]?.post as {
    requestBody: { content: { "application/json": { examples: Record<string, { value: unknown }> } } };
  };
  const value = Object.values(post.requestBody.content["application/json"].examples)[0]?.value;
  return structuredClone(value) as WebhookEventOf<T>;
}

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
/** The contract's purchase example as sent for a checkout that passed no analytics ids. */
const purchase = example("cart.completed");
const passed = purchase.data.order.analytics;
delete purchase.data.order.analytics;
const orderTime = Date.parse(purchase.data.order.createdAt);

describe("GA4 Measurement Protocol", () => {
  it("maps cart.completed to a purchase that passes the published rules", async () => {
    const r = await ga4FromWebhook(purchase, { clientId: "1234567890.1764583452" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.payload).toEqual({
      client_id: "1234567890.1764583452",
      timestamp_micros: orderTime * 1000,
      events: [
        {
          name: "purchase",
          params: {
            transaction_id: purchase.data.order.id,
            currency: "CHF",
            value: 90,
            items: [
              {
                item_id: "art_01JDWZ7P8Q9R0S1T2V3W4X5Y6Z",
                item_name: "Winterkonzert 2026 – Stehplatz Erwachsene",
                item_variant: "slt_01JDWZ5C6D7E8F9G0H1J2K3M4N",
                price: 45,
                quantity: 2,
              },
            ],
          },
        },
      ],
    });
    expect(r.warnings).toEqual([]);
    expect(validateGa4Payload(r.payload, orderTime + 3_600_000)).toEqual([]);
  });

  it("deduplicates against the widget's client-side purchase: same transaction_id, value, currency and items", async () => {
    // What the widget's journey sends on confirmation (journey-actions.ts `finish` → cartAnalyticsItems, moneyValue).
    const order = purchase.data.order;
    const widgetPurchase = {
      name: "purchase",
      params: {
        transaction_id: order.id,
        currency: order.total.currency,
        value: moneyValue(order.total),
        items: order.items.map((item) => ({
          item_id: item.articleId,
          item_name: item.name,
          item_variant: item.slotId ?? undefined,
          price: moneyValue(item.unitPrice),
          quantity: item.quantity,
        })),
      },
    };
    const r = await ga4FromWebhook(purchase);
    if (!r.ok) throw new Error(r.reason);
    const server = r.payload.events[0];
    expect(server?.name).toBe(widgetPurchase.name);
    expect(server?.params).toEqual(widgetPurchase.params);
    // With the visitor's ids passed through (the widget read them from gtag's cookies), the server-side purchase
    // is also the same visitor's: same client_id as the browser's events, in the browser's session.
    const read = ga4IdsFromCookies(
      "_ga=GA1.1.987654321.1764500000; _ga_ABC123XYZ=GS1.1.1764582815.3.1",
      "G-ABC123XYZ",
    );
    if (read === undefined) throw new Error("the widget read no ids");
    const joined = await ga4FromWebhook({
      ...purchase,
      data: { ...purchase.data, order: { ...order, analytics: read } },
    });
    if (!joined.ok) throw new Error(joined.reason);
    expect(joined.payload.client_id).toBe("987654321.1764500000");
    const { session_id, ...commerce } = joined.payload.events[0]?.params ?? {};
    expect(session_id).toBe("1764582815");
    expect(commerce).toEqual(widgetPurchase.params);
    // The Meta event carries the same id as event_id, the Pixel's eventID for the order.
    const meta = await metaFromWebhook(purchase);
    if (!meta.ok) throw new Error(meta.reason);
    expect(meta.payload.data[0]?.event_id).toBe(widgetPurchase.params.transaction_id);
  });

  it("uses the client and session ids the checkout passed through, before the option", async () => {
    expect(passed).toEqual({ ga4ClientId: "1187324961.1764583200", ga4SessionId: "1764582815" });
    const withIds = example("cart.completed");
    const r = await ga4FromWebhook(withIds, { clientId: "1234567890.1764583452" });
    if (!r.ok) throw new Error(r.reason);
    expect(r.payload.client_id).toBe("1187324961.1764583200");
    // GA4 MP: `session_id` as an event parameter (a string) attributes the purchase to that session.
    expect(r.payload.events[0]?.params.session_id).toBe("1764582815");
    expect(r.warnings).toEqual([]);
    expect(validateGa4Payload(r.payload, orderTime)).toEqual([]);
    // A client id alone: no session_id parameter.
    const clientOnly = example("cart.completed");
    clientOnly.data.order.analytics = { ga4ClientId: "42.1700000000" };
    const c = await ga4FromWebhook(clientOnly);
    if (!c.ok) throw new Error(c.reason);
    expect(c.payload.client_id).toBe("42.1700000000");
    expect(c.payload.events[0]?.params).not.toHaveProperty("session_id");
  });

  it("ignores malformed passed-through ids (noted), falling back to the option or a derived id", async () => {
    const bad = example("cart.completed");
    (bad.data.order as { analytics: unknown }).analytics = { ga4ClientId: "GA1.1.42.17", ga4SessionId: "1" };
    const r = await ga4FromWebhook(bad, { clientId: "7.1" });
    if (!r.ok) throw new Error(r.reason);
    expect(r.payload.client_id).toBe("7.1");
    expect(r.payload.events[0]?.params).not.toHaveProperty("session_id");
    expect(r.warnings).toEqual([
      "ignored a malformed /data/order/analytics/ga4ClientId",
      "ignored /data/order/analytics/ga4SessionId",
    ]);
    const derived = await ga4FromWebhook(bad);
    expect(derived.ok && derived.payload.client_id).toMatch(/^\d+\.\d{10}$/);
  });

  it("derives a stable client_id when none was passed through, and says so", async () => {
    const a = await ga4FromWebhook(purchase);
    const b = await ga4FromWebhook(structuredClone(purchase));
    if (!a.ok || !b.ok) throw new Error("skipped");
    expect(a.payload.client_id).toMatch(/^\d+\.\d{10}$/);
    expect(a.payload.client_id).toBe(b.payload.client_id);
    expect(a.warnings.join()).toMatch(/no client_id/);
    const viaLookup = await ga4FromWebhook(purchase, {
      clientId: (e) => `${e.type === "cart.completed" ? 7 : 0}.1`,
    });
    expect(viaLookup.ok && viaLookup.payload.client_id).toBe("7.1");
  });

  it("maps entrance.admitted to a custom entrance event", async () => {
    const admitted = example("entrance.admitted");
    const r = await ga4FromWebhook(admitted, { clientId: "1.2" });
    if (!r.ok) throw new Error(r.reason);
    expect(r.payload.events).toEqual([
      {
        name: "entrance",
        params: {
          scan_id: admitted.data.scan.id,
          ticket_id: admitted.data.ticket.id,
          ticket_source: "shop",
          gate_id: admitted.data.scan.gateId,
          entrada_event_id: admitted.data.scan.eventId,
          category_id: admitted.data.scan.category?.id,
        },
      },
    ]);
    expect(validateGa4Payload(r.payload, Date.parse(admitted.data.scan.scannedAt))).toEqual([]);
  });

  it("keeps within the limits: 200 items, 100-character values", async () => {
    const big = structuredClone(purchase);
    const line = big.data.order.items[0];
    if (!line) throw new Error("fixture has no item");
    big.data.order.items = Array.from({ length: 250 }, (_, i) => ({
      ...line,
      id: `itm_${i}`,
      articleId: `art_${i}`,
      name: "x".repeat(150),
    }));
    const r = await ga4FromWebhook(big, { clientId: "1.2" });
    if (!r.ok) throw new Error(r.reason);
    const items = r.payload.events[0]?.params.items as { item_name: string }[];
    expect(items).toHaveLength(GA4_LIMITS.itemsPerEvent);
    expect(items[0]?.item_name).toHaveLength(100);
    expect(r.payload.events[0]?.params.value).toBe(90); // the order total, not the sum of the kept items
    expect(r.warnings.join("\n")).toMatch(/items cut from 250 to 200/);
    expect(validateGa4Payload(r.payload, orderTime)).toEqual([]);
  });

  it("the validator rejects what GA4 would drop", () => {
    const event = { name: "purchase", params: { transaction_id: "t", value: 1, currency: "CHF" } };
    expect(validateGa4Payload({ client_id: "1.2", events: Array(26).fill(event) })).toContain(
      "at most 25 events per request (got 26)",
    );
    const bad = validateGa4Payload(
      {
        events: [
          { name: "session_start", params: {} },
          { name: "9lives", params: {} },
          { name: "purchase", params: { value: "9", ga_x: "y", long: "z".repeat(101) } },
          { name: "x", params: { items: Array(201).fill({ item_id: "a" }) } },
        ],
        timestamp_micros: (orderTime - 73 * 3_600_000) * 1000,
      },
      orderTime,
    );
    expect(bad).toEqual(
      expect.arrayContaining([
        "client_id is required (a non-empty string)",
        "timestamp_micros is more than 72 hours back",
        'events[0].name "session_start" is reserved',
        "events[1].name must start with a letter and hold only letters, digits and _",
        "events[2].params.ga_x: invalid or reserved parameter name",
        "events[2].params.long is longer than 100 characters",
        "events[2].params.value must be a number",
        "events[2].params.currency (ISO 4217) is required with value",
        "events[2]: purchase needs transaction_id",
        "events[3] has more than 200 items",
      ]),
    );
  });
});

describe("Meta Conversions API", () => {
  it("maps cart.completed to a Purchase with hashed, normalised customer information", async () => {
    const r = await metaFromWebhook(purchase, {
      phone: "+41 79 123 45 67",
      eventSourceUrl: "https://shop.example/checkout",
      clientUserAgent: "Mozilla/5.0",
    });
    if (!r.ok) throw new Error(r.reason);
    const [event] = r.payload.data;
    expect(event).toMatchObject({
      event_name: "Purchase",
      event_time: Math.floor(orderTime / 1000),
      event_id: purchase.data.order.id,
      action_source: "website",
      event_source_url: "https://shop.example/checkout",
      custom_data: {
        currency: "CHF",
        value: 90,
        order_id: purchase.data.order.id,
        content_ids: ["art_01JDWZ7P8Q9R0S1T2V3W4X5Y6Z"],
        contents: [{ id: "art_01JDWZ7P8Q9R0S1T2V3W4X5Y6Z", quantity: 2, item_price: 45 }],
        content_type: "product",
        num_items: 2,
      },
    });
    // Independent hashing (node:crypto) of Meta's normalised forms.
    expect(event?.user_data.em).toEqual([sha("anna.muster@example.ch")]);
    expect(event?.user_data.fn).toEqual([sha("anna")]);
    expect(event?.user_data.ln).toEqual([sha("muster")]);
    expect(event?.user_data.ph).toEqual([sha("41791234567")]);
    expect(event?.user_data.client_user_agent).toBe("Mozilla/5.0");
    expect(validateMetaPayload(r.payload, orderTime + 60_000)).toEqual([]);
  });

  it("normalises before hashing: case and spaces in e-mails, symbols and 00 in phones, punctuation in names", async () => {
    const shouty = structuredClone(purchase);
    shouty.data.order.customer = {
      firstName: " Anne-Marie ",
      lastName: "D'Alessio",
      email: "  Anna.Muster@Example.CH ",
    };
    const r = await metaFromWebhook(shouty, { phone: "0041 (79) 123-45-67" });
    if (!r.ok) throw new Error(r.reason);
    const user = r.payload.data[0]?.user_data;
    expect(user?.em).toEqual([sha("anna.muster@example.ch")]);
    expect(user?.ph).toEqual([sha("41791234567")]);
    expect(user?.fn).toEqual([sha("annemarie")]);
    expect(user?.ln).toEqual([sha("dalessio")]);
    expect(r.payload.data[0]?.action_source).toBe("other");
    expect(normalizePhone("12")).toBeUndefined();
  });

  it("the validator rejects unhashed data, stale times and missing purchase fields", () => {
    const problems = validateMetaPayload(
      {
        data: [
          {
            event_name: "Purchase",
            event_time: Math.floor(orderTime / 1000) - 8 * 86_400,
            action_source: "website",
            user_data: { em: ["anna@example.ch"] },
            custom_data: {},
          },
        ],
      },
      orderTime,
    );
    expect(problems).toEqual([
      "data[0].event_time is more than 7 days back",
      "data[0]: website events need event_source_url",
      "data[0]: website events need client_user_agent",
      "data[0].user_data.em must be SHA-256 hex (normalise, then hash)",
      "data[0]: Purchase needs custom_data.value (a number)",
      "data[0]: Purchase needs custom_data.currency (ISO 4217)",
    ]);
  });
});

/** The contract's purchase with a voucher: two lines (2 × 45.00 and 1 × 20.00), FIVEOFF-style 11.00 off. */
function discountedPurchase() {
  const event = structuredClone(purchase);
  const order = event.data.order;
  const second = {
    ...structuredClone(order.items[0]),
    id: "itm_2",
    articleId: "art_child",
  } as (typeof order.items)[0];
  second.quantity = 1;
  second.unitPrice = { amount: 2000, currency: "CHF" };
  second.lineTotal = { amount: 2000, currency: "CHF" };
  order.items.push(second);
  order.subtotal = { amount: 11000, currency: "CHF" };
  order.discounts = [
    { code: "WINTER10", kind: "percentage", name: "10 % off", amount: { amount: 1100, currency: "CHF" } },
  ];
  order.total = { amount: 9900, currency: "CHF" };
  return event;
}

describe("a purchase with a voucher code", () => {
  it("spreads an order discount over the lines so the shares add up exactly", () => {
    expect(
      spreadDiscount(
        [
          { unit: 4500, quantity: 2 },
          { unit: 2000, quantity: 1 },
        ],
        1100,
      ),
    ).toEqual([
      { price: 4050, discount: 450 },
      { price: 1800, discount: 200 },
    ]);
    const lines = [
      { unit: 1000, quantity: 3 },
      { unit: 1000, quantity: 3 },
      { unit: 999, quantity: 1 },
    ];
    const units = spreadDiscount(lines, 1001);
    const charged = units.reduce((sum, u, i) => sum + u.price * (lines[i]?.quantity ?? 0), 0);
    expect(charged).toBeCloseTo(6999 - 1001, 6);
    expect(spreadDiscount(lines, 0).map((u) => u.price)).toEqual([1000, 1000, 999]);
    // Never more than the lines are worth.
    expect(spreadDiscount([{ unit: 500, quantity: 1 }], 900)).toEqual([{ price: 0, discount: 500 }]);
  });

  it("GA4: coupon, the charged value and discounted item prices that add up to it", async () => {
    const r = await ga4FromWebhook(discountedPurchase(), { clientId: "1234567890.1764583452" });
    if (!r.ok) throw new Error(r.reason);
    const params = r.payload.events[0]?.params ?? {};
    const items = params.items as Ga4Item[];
    expect(params.coupon).toBe("WINTER10");
    expect(params.value).toBe(99);
    expect(items.map((i) => [i.price, i.discount])).toEqual([
      [40.5, 4.5],
      [18, 2],
    ]);
    expect(items.reduce((sum, i) => sum + i.price * i.quantity, 0)).toBeCloseTo(99, 6);
    expect(validateGa4Payload(r.payload, orderTime)).toEqual([]);
  });

  it("the browser's purchase (the widget) and the server's carry the same coupon, value and items", async () => {
    const event = discountedPurchase();
    const r = await ga4FromWebhook(event, { clientId: "1234567890.1764583452" });
    if (!r.ok) throw new Error(r.reason);
    // The order as the API answers it (GET /orders/{id}) carries what cart.completed carries.
    const browser = purchaseParams(event.data.order as unknown as Parameters<typeof purchaseParams>[0]);
    expect(r.payload.events[0]?.params).toEqual(browser);
    expect(browser.coupon).toBe("WINTER10");
  });

  it("Meta: the charged value and the code in custom_data", async () => {
    const r = await metaFromWebhook(discountedPurchase(), { actionSource: "system_generated" });
    if (!r.ok) throw new Error(r.reason);
    expect(r.payload.data[0]?.custom_data).toMatchObject({ currency: "CHF", value: 99, coupon: "WINTER10" });
    expect(validateMetaPayload(r.payload, orderTime)).toEqual([]);
  });

  it("an order without discounts has no coupon and list prices", async () => {
    const r = await ga4FromWebhook(purchase, { clientId: "1234567890.1764583452" });
    if (!r.ok) throw new Error(r.reason);
    expect(r.payload.events[0]?.params).not.toHaveProperty("coupon");
  });
});

describe("bad input is skipped with a reason, never half-built", () => {
  it("unknown kinds", async () => {
    const issued = { type: "ticket.issued", timestamp: "2026-12-01T10:04:12Z", data: {} };
    expect(await ga4FromWebhook(issued)).toEqual({
      ok: false,
      kind: "ticket.issued",
      code: "unknown_kind",
      reason: 'GA4: no conversion for "ticket.issued" (converted: cart.completed, entrance.admitted)',
    });
    expect(await metaFromWebhook(example("entrance.admitted"))).toMatchObject({
      ok: false,
      code: "unknown_kind",
    });
    expect(await ga4FromWebhook("not json")).toMatchObject({ ok: false, code: "unknown_kind", kind: "" });
  });

  it("missing or malformed fields name the field", async () => {
    const noTotal = structuredClone(purchase) as unknown as { data: { order: Record<string, unknown> } };
    delete noTotal.data.order.total;
    expect(await ga4FromWebhook(noTotal)).toEqual({
      ok: false,
      kind: "cart.completed",
      code: "missing_field",
      field: "/data/order/total/currency",
      reason: "missing /data/order/total/currency",
    });
    const badAmount = structuredClone(purchase);
    (badAmount.data.order.items[0] as { quantity: unknown }).quantity = "2";
    expect(await metaFromWebhook(badAmount)).toMatchObject({
      ok: false,
      code: "invalid_field",
      field: "/data/order/items/0/quantity",
    });
    const noEmail = structuredClone(purchase) as unknown as {
      data: { order: { customer: Record<string, unknown> } };
    };
    delete noEmail.data.order.customer.email;
    expect(await metaFromWebhook(noEmail)).toMatchObject({ ok: false, field: "/data/order/customer/email" });
    const website = await metaFromWebhook(purchase, { actionSource: "website" });
    expect(website).toMatchObject({ ok: false, code: "missing_field" });
  });
});
