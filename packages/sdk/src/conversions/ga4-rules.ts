/**
 * The Measurement Protocol's published limits (GA4 "Measurement Protocol: limitations" and "reserved names"), and a
 * validator for request bodies: the mappers keep within them, tests and the activation example check with it.
 */
export const GA4_LIMITS = {
  eventsPerRequest: 25,
  paramsPerEvent: 25,
  eventNameLength: 40,
  paramNameLength: 40,
  paramValueLength: 100,
  itemsPerEvent: 200,
  /** Events may be dated at most this far back. */
  maxAgeMs: 72 * 3_600_000,
} as const;

const RESERVED_EVENTS = new Set([
  "ad_activeview",
  "ad_click",
  "ad_exposure",
  "ad_query",
  "ad_reward",
  "adunit_exposure",
  "app_clear_data",
  "app_exception",
  "app_install",
  "app_remove",
  "app_store_refund",
  "app_update",
  "app_upgrade",
  "dynamic_link_app_open",
  "dynamic_link_app_update",
  "dynamic_link_first_open",
  "error",
  "firebase_campaign",
  "first_open",
  "first_visit",
  "in_app_purchase",
  "notification_dismiss",
  "notification_foreground",
  "notification_open",
  "notification_receive",
  "os_update",
  "session_start",
  "user_engagement",
]);
const RESERVED_PREFIX = /^(google_|ga_|firebase_)/;
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * Every rule the body breaks, as readable sentences (empty when it is valid).
 * @param now the current time in ms, for the 72-hour limit on `timestamp_micros`.
 */
export function validateGa4Payload(body: unknown, now = Date.now()): string[] {
  const problems: string[] = [];
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== "object") return ["body must be a JSON object"];
  if (typeof b.client_id !== "string" || !b.client_id)
    problems.push("client_id is required (a non-empty string)");
  if (b.user_id !== undefined && typeof b.user_id !== "string") problems.push("user_id must be a string");
  if (b.timestamp_micros !== undefined) {
    const t = b.timestamp_micros;
    if (typeof t !== "number" || !Number.isSafeInteger(t))
      problems.push("timestamp_micros must be an integer");
    else if (t / 1000 < now - GA4_LIMITS.maxAgeMs)
      problems.push("timestamp_micros is more than 72 hours back");
    else if (t / 1000 > now + 60_000) problems.push("timestamp_micros is in the future");
  }
  const events = b.events;
  if (!Array.isArray(events) || events.length === 0) return [...problems, "events must be a non-empty array"];
  if (events.length > GA4_LIMITS.eventsPerRequest)
    problems.push(`at most ${GA4_LIMITS.eventsPerRequest} events per request (got ${events.length})`);
  for (const [i, event] of (events as { name?: unknown; params?: Record<string, unknown> }[]).entries()) {
    const where = `events[${i}]`;
    const name = event?.name;
    if (typeof name !== "string" || !NAME.test(name))
      problems.push(`${where}.name must start with a letter and hold only letters, digits and _`);
    else {
      if (name.length > GA4_LIMITS.eventNameLength)
        problems.push(`${where}.name is longer than 40 characters`);
      if (RESERVED_EVENTS.has(name) || RESERVED_PREFIX.test(name))
        problems.push(`${where}.name "${name}" is reserved`);
    }
    const params = event?.params ?? {};
    if (typeof params !== "object") {
      problems.push(`${where}.params must be an object`);
      continue;
    }
    const entries = Object.entries(params);
    if (entries.length > GA4_LIMITS.paramsPerEvent) problems.push(`${where} has more than 25 parameters`);
    for (const [key, value] of entries) {
      if (!NAME.test(key) || key.length > GA4_LIMITS.paramNameLength || RESERVED_PREFIX.test(key))
        problems.push(`${where}.params.${key}: invalid or reserved parameter name`);
      if (typeof value === "string" && value.length > GA4_LIMITS.paramValueLength)
        problems.push(`${where}.params.${key} is longer than 100 characters`);
    }
    if (params.value !== undefined) {
      if (typeof params.value !== "number" || !Number.isFinite(params.value))
        problems.push(`${where}.params.value must be a number`);
      if (typeof params.currency !== "string" || !/^[A-Z]{3}$/.test(params.currency))
        problems.push(`${where}.params.currency (ISO 4217) is required with value`);
    }
    if (name === "purchase" && (typeof params.transaction_id !== "string" || !params.transaction_id))
      problems.push(`${where}: purchase needs transaction_id`);
    if (params.items !== undefined) {
      const items = params.items;
      if (!Array.isArray(items)) problems.push(`${where}.params.items must be an array`);
      else {
        if (items.length > GA4_LIMITS.itemsPerEvent) problems.push(`${where} has more than 200 items`);
        items.forEach((item: Record<string, unknown>, k) => {
          if (typeof item?.item_id !== "string" && typeof item?.item_name !== "string")
            problems.push(`${where}.items[${k}] needs item_id or item_name`);
          for (const [key, value] of Object.entries(item ?? {})) {
            if (typeof value === "string" && value.length > GA4_LIMITS.paramValueLength)
              problems.push(`${where}.items[${k}].${key} is longer than 100 characters`);
          }
          if (item?.price !== undefined && typeof item.price !== "number")
            problems.push(`${where}.items[${k}].price must be a number`);
          if (
            item?.quantity !== undefined &&
            (typeof item.quantity !== "number" || !Number.isInteger(item.quantity))
          )
            problems.push(`${where}.items[${k}].quantity must be an integer`);
        });
      }
    }
  }
  return problems;
}
