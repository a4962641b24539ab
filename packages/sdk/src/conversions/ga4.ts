import type { WebhookEventOf } from "../webhooks/events.ts";
import { spreadDiscount } from "./discount.ts";
import { at, currency, instant, int, list, majorUnits, optionalStr, str } from "./fields.ts";
import { GA4_LIMITS } from "./ga4-rules.ts";
import { type ConversionResult, guarded, SkipConversion } from "./result.ts";

/** One GA4 e-commerce item (`items[]`), the shape the shop widget's client-side events use. */
export interface Ga4Item {
  item_id: string;
  item_name: string;
  item_variant?: string;
  /** The unit price actually charged (after the order's voucher discount, see `spreadDiscount`). */
  price: number;
  /** The unit discount, when the order redeemed a voucher code. */
  discount?: number;
  quantity: number;
}

/** One event of a Measurement Protocol request. */
export interface Ga4Event {
  name: string;
  params: Record<string, string | number | Ga4Item[]>;
}

/** The JSON body of `POST https://www.google-analytics.com/mp/collect?measurement_id=…&api_secret=…`. */
export interface Ga4MeasurementPayload {
  client_id: string;
  user_id?: string;
  /** When the event happened (µs since the epoch); GA4 accepts up to 72 hours back. */
  timestamp_micros: number;
  events: Ga4Event[];
}

/** The webhook kinds GA4 mapping converts. */
export type Ga4Kind = "cart.completed" | "entrance.admitted";

export interface Ga4Options {
  /**
   * The browser's GA4 client id (the `_ga` cookie's `1234567890.1700000000` part), as a value or looked up per
   * event, for events that do not carry one: a `cart.completed` whose checkout passed the visitor's ids
   * (`data.order.analytics`, sent by the shop widget when its host set `analytics.measurementId`) uses those.
   * Without either, a stable id is derived from the order (or ticket) id: the conversion still counts and
   * deduplicates, but is not joined to the browser's visitor and session.
   */
  clientId?: string | ((event: WebhookEventOf<Ga4Kind>) => string | undefined);
  /** Your own user id (`user_id`), if you have one for the buyer. */
  userId?: string;
  /** Name of the custom event for an admission (default `entrance`). */
  entranceEventName?: string;
}

/** FNV-1a, for a stable derived client id (not a secret: it only needs to be the same for the same order). */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The shapes `AnalyticsIds` allows (the contract's patterns); anything else in a payload is ignored. */
const CLIENT_ID = /^[0-9]{1,20}\.[0-9]{1,20}$/;
const SESSION_ID = /^[0-9]{1,20}$/;

/**
 * The visitor's GA4 ids the checkout passed through (`data.order.analytics`), if well-formed. A malformed one is
 * not forwarded (GA4 would start a new visitor with it) but does not stop the conversion: it is noted instead.
 */
function passedThrough(event: unknown, warnings: string[]): { clientId?: string; sessionId?: string } {
  const clientId = at(event, "/data/order/analytics/ga4ClientId");
  const sessionId = at(event, "/data/order/analytics/ga4SessionId");
  const ids: { clientId?: string; sessionId?: string } = {};
  if (typeof clientId === "string" && CLIENT_ID.test(clientId)) ids.clientId = clientId;
  else if (clientId !== undefined) warnings.push("ignored a malformed /data/order/analytics/ga4ClientId");
  if (ids.clientId !== undefined && typeof sessionId === "string" && SESSION_ID.test(sessionId))
    ids.sessionId = sessionId;
  else if (sessionId !== undefined) warnings.push("ignored /data/order/analytics/ga4SessionId");
  return ids;
}

function clientIdFor(
  event: WebhookEventOf<Ga4Kind>,
  seed: string,
  when: Date,
  options: Ga4Options,
  warnings: string[],
  fromPayload?: string,
): string {
  if (fromPayload) return fromPayload;
  const given = typeof options.clientId === "function" ? options.clientId(event) : options.clientId;
  if (given) return given;
  warnings.push("no client_id was passed through: derived one from the id, so no browser session is joined");
  return `${fnv(seed)}.${Math.floor(when.getTime() / 1000)}`;
}

/** Truncates a string parameter to GA4's length limit, noting it. */
function clip(value: string, max: number, what: string, warnings: string[]): string {
  if (value.length <= max) return value;
  warnings.push(`${what} cut to ${max} characters`);
  return value.slice(0, max);
}

/**
 * The order's voucher code and each line's charged unit price and unit discount (minor units). An order without
 * `discounts` (or from before vouchers) has list prices and no coupon.
 */
function discounted(event: WebhookEventOf<"cart.completed">, count: number, code: string) {
  const lines = Array.from({ length: count }, (_, i) => ({
    unit: int(event, `/data/order/items/${i}/unitPrice/amount`, 0),
    quantity: int(event, `/data/order/items/${i}/quantity`, 1),
  }));
  const discounts = at(event, "/data/order/discounts");
  const first = Array.isArray(discounts) && discounts.length > 0 ? "/data/order/discounts/0" : undefined;
  if (!first) return { coupon: undefined, units: spreadDiscount(lines, 0) };
  if (currency(event, `${first}/amount/currency`) !== code)
    throw new SkipConversion(
      "invalid_field",
      `${first}/amount is not in ${code}`,
      `${first}/amount/currency`,
    );
  return {
    coupon: str(event, `${first}/code`),
    units: spreadDiscount(lines, int(event, `${first}/amount/amount`, 0)),
  };
}

function purchase(event: WebhookEventOf<"cart.completed">, options: Ga4Options, warnings: string[]) {
  const orderId = str(event, "/data/order/id");
  const code = currency(event, "/data/order/total/currency");
  const total = int(event, "/data/order/total/amount", 0);
  const when = instant(event, "/data/order/createdAt");
  const lines = list(event, "/data/order/items");
  if (lines.length === 0)
    throw new SkipConversion("invalid_field", "/data/order/items is empty", "/data/order/items");
  const max = GA4_LIMITS.paramValueLength;
  const { coupon, units } = discounted(event, lines.length, code);
  let items: Ga4Item[] = lines.map((_, i) => {
    const base = `/data/order/items/${i}`;
    const unitCurrency = currency(event, `${base}/unitPrice/currency`);
    if (unitCurrency !== code)
      throw new SkipConversion(
        "invalid_field",
        `${base}/unitPrice is not in ${code}`,
        `${base}/unitPrice/currency`,
      );
    const variant = optionalStr(event, `${base}/slotId`);
    return {
      item_id: clip(str(event, `${base}/articleId`), max, "item_id", warnings),
      item_name: clip(str(event, `${base}/name`), max, "item_name", warnings),
      ...(variant ? { item_variant: clip(variant, max, "item_variant", warnings) } : {}),
      price: majorUnits(units[i]?.price ?? 0, code),
      ...(units[i]?.discount ? { discount: majorUnits(units[i]?.discount ?? 0, code) } : {}),
      quantity: int(event, `${base}/quantity`, 1),
    };
  });
  if (items.length > GA4_LIMITS.itemsPerEvent) {
    warnings.push(
      `items cut from ${items.length} to ${GA4_LIMITS.itemsPerEvent} (GA4's limit); value is the order total`,
    );
    items = items.slice(0, GA4_LIMITS.itemsPerEvent);
  }
  const visitor = passedThrough(event, warnings);
  const payload: Ga4MeasurementPayload = {
    // The widget's ids (same client_id as its client-side events) join the browser's visitor and session.
    client_id: clientIdFor(event, orderId, when, options, warnings, visitor.clientId),
    timestamp_micros: when.getTime() * 1000,
    events: [
      {
        name: "purchase",
        params: {
          // The shop widget's client-side `purchase` uses the order id too: GA4 counts the order once.
          transaction_id: clip(orderId, max, "transaction_id", warnings),
          currency: code,
          value: majorUnits(total, code),
          // The voucher code the order redeemed; `value` and the item prices are what was charged.
          ...(coupon ? { coupon: clip(coupon, max, "coupon", warnings) } : {}),
          items,
          // GA4 MP: `session_id` (a string) in the event's params attributes it to that session.
          ...(visitor.sessionId ? { session_id: visitor.sessionId } : {}),
        },
      },
    ],
  };
  if (options.userId) payload.user_id = options.userId;
  return payload;
}

function entrance(event: WebhookEventOf<"entrance.admitted">, options: Ga4Options, warnings: string[]) {
  const max = GA4_LIMITS.paramValueLength;
  const ticketId = str(event, "/data/ticket/id");
  const when = instant(event, "/data/scan/scannedAt");
  const params: Record<string, string | number> = {
    scan_id: clip(str(event, "/data/scan/id"), max, "scan_id", warnings),
    ticket_id: clip(ticketId, max, "ticket_id", warnings),
    ticket_source: str(event, "/data/ticket/source"),
    gate_id: clip(str(event, "/data/scan/gateId"), max, "gate_id", warnings),
  };
  const eventId = optionalStr(event, "/data/scan/eventId") ?? optionalStr(event, "/data/ticket/eventId");
  if (eventId) params.entrada_event_id = clip(eventId, max, "entrada_event_id", warnings);
  const category = optionalStr(event, "/data/scan/category/id");
  if (category) params.category_id = clip(category, max, "category_id", warnings);
  const name = options.entranceEventName ?? "entrance";
  const payload: Ga4MeasurementPayload = {
    client_id: clientIdFor(event, ticketId, when, options, warnings),
    timestamp_micros: when.getTime() * 1000,
    events: [{ name, params }],
  };
  if (options.userId) payload.user_id = options.userId;
  return payload;
}

/**
 * A GA4 Measurement Protocol request body for a webhook event: `cart.completed` → `purchase` (with
 * `transaction_id` = the order id, as the shop widget's own `purchase`), `entrance.admitted` → a custom `entrance`
 * event. Any other kind, or a payload missing a field, is skipped with a reason — never half-built.
 * Pure: it sends nothing; POST the payload to `/mp/collect` yourself (or with the activation example).
 * @example
 * const r = await ga4FromWebhook(event, { clientId });
 * if (r.ok) await fetch(mpUrl, { method: "POST", body: JSON.stringify(r.payload) });
 * else log.info(`not forwarded: ${r.reason}`);
 */
export function ga4FromWebhook(
  event: unknown,
  options: Ga4Options = {},
): Promise<ConversionResult<Ga4MeasurementPayload>> {
  const kind = typeof at(event, "/type") === "string" ? (at(event, "/type") as string) : "";
  return guarded(kind, (warnings) => {
    if (kind === "cart.completed")
      return purchase(event as WebhookEventOf<"cart.completed">, options, warnings);
    if (kind === "entrance.admitted")
      return entrance(event as WebhookEventOf<"entrance.admitted">, options, warnings);
    throw new SkipConversion(
      "unknown_kind",
      kind
        ? `GA4: no conversion for "${kind}" (converted: cart.completed, entrance.admitted)`
        : "not a webhook event: no type",
    );
  });
}
