import { isSha256Hex } from "./hash.ts";

/** Meta Conversions API request limits and rules (Marketing API, "Conversions API: parameters"). */
export const META_LIMITS = {
  eventsPerRequest: 1000,
  /** `event_time` may be at most 7 days back. */
  maxAgeMs: 7 * 86_400_000,
} as const;

const ACTION_SOURCES = new Set([
  "website",
  "app",
  "email",
  "phone_call",
  "chat",
  "physical_store",
  "system_generated",
  "business_messaging",
  "other",
]);
const HASHED = ["em", "ph", "fn", "ln", "ge", "db", "ct", "st", "zp", "country", "external_id"] as const;
const MATCH_KEYS = [...HASHED, "client_ip_address", "client_user_agent", "fbp", "fbc"];

/** Every rule a Conversions API body breaks, as readable sentences (empty when it is valid). */
export function validateMetaPayload(body: unknown, now = Date.now()): string[] {
  const problems: string[] = [];
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length === 0) return ["data must be a non-empty array"];
  if (data.length > META_LIMITS.eventsPerRequest) problems.push("at most 1000 events per request");
  data.forEach((e: Record<string, unknown>, i) => {
    const where = `data[${i}]`;
    if (typeof e?.event_name !== "string" || !e.event_name) problems.push(`${where}.event_name is required`);
    const t = e?.event_time;
    if (typeof t !== "number" || !Number.isInteger(t))
      problems.push(`${where}.event_time must be unix seconds`);
    else if (t * 1000 < now - META_LIMITS.maxAgeMs)
      problems.push(`${where}.event_time is more than 7 days back`);
    else if (t * 1000 > now + 60_000) problems.push(`${where}.event_time is in the future`);
    if (typeof e?.action_source !== "string" || !ACTION_SOURCES.has(e.action_source))
      problems.push(`${where}.action_source is required (website, app, …, other)`);
    if (e?.action_source === "website") {
      if (typeof e.event_source_url !== "string")
        problems.push(`${where}: website events need event_source_url`);
      const user = e.user_data as Record<string, unknown> | undefined;
      if (typeof user?.client_user_agent !== "string")
        problems.push(`${where}: website events need client_user_agent`);
    }
    if (e?.event_id !== undefined && (typeof e.event_id !== "string" || !e.event_id))
      problems.push(`${where}.event_id must be a non-empty string`);
    const user = e?.user_data as Record<string, unknown> | undefined;
    if (!user || typeof user !== "object") problems.push(`${where}.user_data is required`);
    else {
      if (!MATCH_KEYS.some((k) => user[k] !== undefined))
        problems.push(`${where}.user_data has no customer information`);
      for (const key of HASHED) {
        const v = user[key];
        if (v === undefined) continue;
        const values = Array.isArray(v) ? v : [v];
        if (!values.every(isSha256Hex))
          problems.push(`${where}.user_data.${key} must be SHA-256 hex (normalise, then hash)`);
      }
    }
    if (e?.event_name === "Purchase") {
      const custom = e.custom_data as Record<string, unknown> | undefined;
      if (typeof custom?.value !== "number" || !Number.isFinite(custom.value))
        problems.push(`${where}: Purchase needs custom_data.value (a number)`);
      if (typeof custom?.currency !== "string" || !/^[A-Za-z]{3}$/.test(custom.currency))
        problems.push(`${where}: Purchase needs custom_data.currency (ISO 4217)`);
    }
  });
  return problems;
}
