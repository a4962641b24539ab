import { isErrorKind, type ProblemSlug } from "@entrada/sdk/shop";

/**
 * The problem slugs the buyer reads a text of their own for (`errors.<slug>` in the `core` or `checkout` texts).
 * A subset of the SDK's `ProblemSlug`: a slug the contract drops fails to compile here.
 */
type SlugWithText = Extract<
  ProblemSlug,
  | "sold-out"
  | "insufficient-capacity"
  | "hold-expired"
  | "cart-locked"
  | "cart-not-ready"
  | "payment-declined"
  | "voucher-unknown"
  | "voucher-expired"
  | "voucher-not-applicable"
  | "voucher-used-up"
  | "validation-error"
  | "not-found"
  | "rate-limited"
>;

const SLUGS_WITH_TEXT: ReadonlySet<string> = new Set<SlugWithText>([
  "sold-out",
  "insufficient-capacity",
  "hold-expired",
  "cart-locked",
  "cart-not-ready",
  "payment-declined",
  "voucher-unknown",
  "voucher-expired",
  "voucher-not-applicable",
  "voucher-used-up",
  "validation-error",
  "not-found",
  "rate-limited",
]);

/**
 * What the buyer is told (`errors.<text>`): a problem's slug, what the SDK's error kind means to a buyer, or an
 * outcome of the widget's own that no call reports (a payment that did not complete on the provider's page, a
 * detail the host locked that the API refused).
 */
export type ErrorText =
  | SlugWithText
  | "network"
  | "timeout"
  | "session-expired"
  | "generic"
  | "payment-failed"
  | "payment-cancelled"
  | "payment-pending"
  | "buyer-refused";

/**
 * The text for an error the SDK reported (an `EntradaError`, from any build of the SDK): the problem's slug when
 * the widget has a text for it, `session-expired` for a `401` the SDK could not renew or a session-token function
 * that failed (`oauth`), `network` for no answer, `timeout` for no answer in time. Anything else, and anything a custom
 * `ShopApi` threw that is not an `EntradaError`, reads `generic`.
 */
export function errorText(error: unknown): ErrorText {
  if (isErrorKind(error, "problem")) {
    if (error.status === 401) return "session-expired";
    return hasText(error.slug) ? error.slug : "generic";
  }
  if (isErrorKind(error, "oauth")) return "session-expired";
  if (isErrorKind(error, "network")) return "network";
  // The attempt's timeout or the call's deadline: the shop is slow, not the buyer's connection.
  if (isErrorKind(error, "timeout")) return "timeout";
  return "generic";
}

const hasText = (slug: string): slug is SlugWithText => SLUGS_WITH_TEXT.has(slug);
