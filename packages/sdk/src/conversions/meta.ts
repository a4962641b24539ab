import type { WebhookEventOf } from "../webhooks/events.ts";
import { at, currency, instant, int, list, majorUnits, optionalStr, str } from "./fields.ts";
import { normalizeEmail, normalizeName, normalizePhone, sha256Hex } from "./hash.ts";
import { type ConversionResult, guarded, SkipConversion } from "./result.ts";

/** Where the conversion happened (Meta's `action_source`). */
export type MetaActionSource =
  | "website"
  | "app"
  | "email"
  | "phone_call"
  | "chat"
  | "physical_store"
  | "system_generated"
  | "business_messaging"
  | "other";

/** Customer information, hashed where Meta wants it hashed (`em`, `ph`, `fn`, `ln`, `external_id`). */
export interface MetaUserData {
  em?: string[];
  ph?: string[];
  fn?: string[];
  ln?: string[];
  external_id?: string[];
  client_ip_address?: string;
  client_user_agent?: string;
  fbp?: string;
  fbc?: string;
}

export interface MetaServerEvent {
  event_name: string;
  /** Unix seconds. */
  event_time: number;
  /** Deduplicates against a browser Pixel event with the same `eventID` (and name). */
  event_id: string;
  action_source: MetaActionSource;
  event_source_url?: string;
  user_data: MetaUserData;
  custom_data: {
    currency: string;
    value: number;
    order_id: string;
    content_ids: string[];
    contents: { id: string; quantity: number; item_price: number }[];
    content_type: "product";
    num_items: number;
    /** The voucher code the order redeemed (a custom property). */
    coupon?: string;
  };
}

/** The JSON body of `POST https://graph.facebook.com/<version>/<pixel id>/events?access_token=…`. */
export interface MetaConversionsPayload {
  data: MetaServerEvent[];
  test_event_code?: string;
}

export interface MetaOptions {
  /**
   * `action_source`. Default `website` when `eventSourceUrl` and `clientUserAgent` are given (Meta requires both for
   * website events), else `other`.
   */
  actionSource?: MetaActionSource;
  /** The page the purchase completed on. */
  eventSourceUrl?: string;
  /** The buyer's browser, if your site passed it through. */
  clientUserAgent?: string;
  clientIpAddress?: string;
  /** The `_fbp` / `_fbc` cookies, if passed through (improve matching). */
  fbp?: string;
  fbc?: string;
  /** The buyer's phone (E.164), e.g. from your own records: the purchase event carries none. */
  phone?: string;
  /** Your own customer id, hashed into `external_id`. */
  externalId?: string;
  /** From Events Manager's "Test events" tab, while you test. */
  testEventCode?: string;
}

async function purchase(
  event: WebhookEventOf<"cart.completed">,
  options: MetaOptions,
  warnings: string[],
): Promise<MetaConversionsPayload> {
  const orderId = str(event, "/data/order/id");
  const code = currency(event, "/data/order/total/currency");
  const total = int(event, "/data/order/total/amount", 0);
  const when = instant(event, "/data/order/createdAt");
  const email = str(event, "/data/order/customer/email");
  if (!email.includes("@"))
    throw new SkipConversion(
      "invalid_field",
      "/data/order/customer/email is not an e-mail address",
      "/data/order/customer/email",
    );
  const lines = list(event, "/data/order/items");
  if (lines.length === 0)
    throw new SkipConversion("invalid_field", "/data/order/items is empty", "/data/order/items");
  const coupon = optionalStr(event, "/data/order/discounts/0/code");
  const contents = lines.map((_, i) => ({
    id: str(event, `/data/order/items/${i}/articleId`),
    quantity: int(event, `/data/order/items/${i}/quantity`, 1),
    item_price: majorUnits(int(event, `/data/order/items/${i}/unitPrice/amount`, 0), code),
  }));
  const user: MetaUserData = { em: [await sha256Hex(normalizeEmail(email))] };
  const first = normalizeName(str(event, "/data/order/customer/firstName"));
  const last = normalizeName(str(event, "/data/order/customer/lastName"));
  if (first) user.fn = [await sha256Hex(first)];
  if (last) user.ln = [await sha256Hex(last)];
  if (options.phone !== undefined) {
    const phone = normalizePhone(options.phone);
    if (phone) user.ph = [await sha256Hex(phone)];
    else warnings.push("phone is not a phone number with a country code: left out");
  }
  if (options.externalId) user.external_id = [await sha256Hex(options.externalId.trim())];
  if (options.clientIpAddress) user.client_ip_address = options.clientIpAddress;
  if (options.clientUserAgent) user.client_user_agent = options.clientUserAgent;
  if (options.fbp) user.fbp = options.fbp;
  if (options.fbc) user.fbc = options.fbc;
  const website = Boolean(options.eventSourceUrl && options.clientUserAgent);
  const actionSource = options.actionSource ?? (website ? "website" : "other");
  if (actionSource === "website" && !website)
    throw new SkipConversion(
      "missing_field",
      "Meta website events need eventSourceUrl and clientUserAgent (pass them, or another actionSource)",
    );
  const server: MetaServerEvent = {
    event_name: "Purchase",
    event_time: Math.floor(when.getTime() / 1000),
    // The same id as the browser's purchase (the order id): Meta keeps one of the two.
    event_id: orderId,
    action_source: actionSource,
    user_data: user,
    custom_data: {
      currency: code,
      value: majorUnits(total, code),
      order_id: orderId,
      content_ids: [...new Set(contents.map((c) => c.id))],
      contents,
      content_type: "product",
      num_items: contents.reduce((n, c) => n + c.quantity, 0),
      // The voucher code the order redeemed (a custom property: Meta has no standard one); `value` is the charged
      // total, as the browser pixel's.
      ...(coupon ? { coupon } : {}),
    },
  };
  if (options.eventSourceUrl) server.event_source_url = options.eventSourceUrl;
  return { data: [server], ...(options.testEventCode ? { test_event_code: options.testEventCode } : {}) };
}

/**
 * A Meta Conversions API request body for `cart.completed`: a `Purchase` with `event_id` = the order id (the
 * browser Pixel's `eventID` for the same order, so Meta deduplicates) and SHA-256-hashed, normalised customer
 * information. Other kinds and incomplete payloads are skipped with a reason. Pure: it sends nothing.
 * @example
 * const r = await metaFromWebhook(event, { phone: customer.phone });
 * if (r.ok) await fetch(`https://graph.facebook.com/v21.0/${pixelId}/events?access_token=${token}`, {
 *   method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(r.payload) });
 */
export function metaFromWebhook(
  event: unknown,
  options: MetaOptions = {},
): Promise<ConversionResult<MetaConversionsPayload>> {
  const kind = typeof at(event, "/type") === "string" ? (at(event, "/type") as string) : "";
  return guarded(kind, (warnings) => {
    if (kind === "cart.completed")
      return purchase(event as WebhookEventOf<"cart.completed">, options, warnings);
    throw new SkipConversion(
      "unknown_kind",
      kind ? `Meta: no conversion for "${kind}" (converted: cart.completed)` : "not a webhook event: no type",
    );
  });
}
