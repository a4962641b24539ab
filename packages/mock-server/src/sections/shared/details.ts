import { pickText } from "../../core/culture.ts";
import { msg } from "../../core/messages.ts";
import type { LocalizedText, OperationContext } from "../../core/types.ts";

/**
 * Localized `detail` texts of the problems thrown by the entrance, external-entrance, connections, survey, assets
 * and webhooks sections (the engine localizes titles; details are ours). `{name}` placeholders are filled in.
 */
export const DETAILS = {
  noGate: msg("entrance.details.there-is-no-gate"),
  noEvent: msg("entrance.details.there-is-no-event"),
  noVenue: msg("entrance.details.there-is-no-venue"),
  noImport: msg("entrance.details.there-is-no-import"),
  noBadge: msg("entrance.details.there-is-no-badge"),
  noContact: msg("entrance.details.badge-has-no-contact"),
  noSurvey: msg("entrance.details.there-is-no-survey"),
  noSubscription: msg("entrance.details.there-is-no-webhook-subscription"),
  noDelivery: msg("entrance.details.there-is-no-webhook-delivery"),
  noImage: msg("entrance.details.there-is-no-image"),
  noIcon: msg("entrance.details.there-is-no-icon"),
  noTicket: msg("entrance.details.there-is-no-ticket"),
  noOrder: msg("entrance.details.there-is-no-order"),
  future: msg("entrance.details.lies-in-the-future-it-must"),
  gateClosed: msg("entrance.details.gate-is-closed"),
  gateExitOnly: msg("entrance.details.gate-records-exits-only-use-post"),
  gateEntryOnly: msg("entrance.details.gate-records-entries-only"),
  badPattern: msg("entrance.details.the-pattern-is-not-a-valid"),
  categoryExists: msg("entrance.details.a-category-named-already-exists"),
  categoryLimit: msg("entrance.details.this-mock-keeps-at-most-custom"),
  toBeforeFrom: msg("entrance.details.to-must-be-after-from"),
  badCursor: msg("entrance.details.unknown-or-expired-cursor-start-again"),
  surveyClosed: msg("entrance.details.survey-is-closed-and-accepts-no"),
  webhookUrl: msg("entrance.details.webhook-urls-must-use-https-http"),
  noExample: msg("entrance.details.the-contract-has-no-example-payload"),
  subscriptionDeleted: msg("entrance.details.the-subscription-of-delivery-was-deleted"),
  subscriptionDisabled: msg("entrance.details.subscription-is-disabled-enable-it-before"),
  ticketCancelled: msg("entrance.details.ticket-was-cancelled"),
} satisfies Record<string, LocalizedText>;

/** The culture's text of a detail, placeholders filled. */
export function detail(
  ctx: Pick<OperationContext, "culture">,
  key: keyof typeof DETAILS,
  vars: Record<string, string | number> = {},
): string {
  return pickText(DETAILS[key], ctx.culture).replace(/\{(\w+)\}/g, (_, k: string) =>
    String(vars[k] ?? `{${k}}`),
  );
}
