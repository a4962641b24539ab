import { msg, pickText } from "../../core/messages.ts";
import type { Culture, LocalizedText } from "../../core/types.ts";

/** Localized gate-display sentences. `{time}` and `{when}` are filled in with Intl for the culture. */
export const REASON_TEXTS: Record<string, LocalizedText> = {
  admitted: msg("entrance.texts.welcome-entry-granted"),
  unknown_quicode: msg("entrance.texts.unknown-code-please-go-to-the"),
  already_used: msg("entrance.texts.this-ticket-was-already-scanned-at"),
  wrong_gate: msg("entrance.texts.this-ticket-is-not-valid-at"),
  not_yet_valid: msg("entrance.texts.this-ticket-is-only-valid-from"),
  expired: msg("entrance.texts.this-ticket-expired-on"),
  cancelled: msg("entrance.texts.this-ticket-has-been-cancelled"),
  exited: msg("entrance.texts.goodbye-re-entry-is-possible-with"),
  not_inside: msg("entrance.texts.this-ticket-is-not-checked-in"),
};

export const UNCATEGORIZED = msg("entrance.texts.uncategorized");

/** Times at the gate are shown in Swiss local time. */
const TIME_ZONE = "Europe/Zurich";

/** Fill a reason sentence for the culture; `at` is the instant used for `{time}` / `{when}`. */
export function reasonText(key: string, culture: Culture, at?: number): string {
  const template = pickText(REASON_TEXTS[key], culture);
  if (at === undefined) return template;
  const time = new Intl.DateTimeFormat(culture, {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: TIME_ZONE,
  }).format(at);
  const when = new Intl.DateTimeFormat(culture, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: TIME_ZONE,
  }).format(at);
  return template.replace("{time}", time).replace("{when}", when);
}
