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

/**
 * The open cart's id (a reference, no personal data) per widget instance, so a reload or a single-page
 * app's remount finds the buyer's cart again.
 */
export function cartRef(instanceId: string, cartId?: string | null): string | undefined {
  const key = `entrada-shop:${instanceId}:cart`;
  try {
    const storage = globalThis.sessionStorage;
    if (cartId === undefined) return storage.getItem(key) ?? undefined;
    if (cartId === null) storage.removeItem(key);
    else storage.setItem(key, cartId);
  } catch {
    // Storage blocked: the cart lives as long as the page.
  }
  return undefined;
}
