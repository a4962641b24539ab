/**
 * The resumable journey across a payment redirect. Before leaving, a small record (step, cart and payment
 * references; no personal data, no secrets) goes to sessionStorage under a key namespaced per widget
 * instance; the return URL is the host page plus `entrada_shop=<instanceId>`. On mount the widget detects
 * its own return, removes its parameters without a history entry, and confirms the outcome with the server.
 */

export const PARAM_INSTANCE = "entrada_shop";
export const PARAM_PAYMENT = "entrada_payment";
export const PARAM_RESULT = "entrada_result";
const PARAMS = [PARAM_INSTANCE, PARAM_PAYMENT, PARAM_RESULT];

export type PaymentResult = "success" | "failure" | "cancel";

export interface ReturnInfo {
  paymentId: string;
  result: PaymentResult | undefined;
}

/** The page the payment provider sends the buyer back to: `base` plus this instance's marker. */
export function buildReturnUrl(base: string, instanceId: string): string {
  const url = new URL(base);
  for (const name of PARAMS) url.searchParams.delete(name);
  url.searchParams.set(PARAM_INSTANCE, instanceId);
  url.hash = "";
  return url.toString();
}

/** This instance's return parameters in `href`, if any. */
export function detectReturn(href: string, instanceId: string): ReturnInfo | undefined {
  const url = new URL(href);
  if (url.searchParams.get(PARAM_INSTANCE) !== instanceId) return undefined;
  const paymentId = url.searchParams.get(PARAM_PAYMENT);
  if (paymentId === null || paymentId === "") return undefined;
  const result = url.searchParams.get(PARAM_RESULT);
  return {
    paymentId,
    result: result === "success" || result === "failure" || result === "cancel" ? result : undefined,
  };
}

/** Remove the widget's parameters from the address bar without adding a history entry. */
export function stripReturnParams(): void {
  const url = new URL(globalThis.location.href);
  let changed = false;
  for (const name of PARAMS) {
    if (url.searchParams.has(name)) {
      url.searchParams.delete(name);
      changed = true;
    }
  }
  if (changed) globalThis.history.replaceState(globalThis.history.state, "", url.toString());
}
