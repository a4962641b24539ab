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

/** Records older than this are ignored (the cart hold is much shorter anyway). */
export const RESUME_MAX_AGE_MS = 60 * 60 * 1000;

export interface ResumeRecord {
  v: 1;
  step: "payment";
  cartId: string;
  paymentId: string;
  /** Epoch milliseconds. */
  savedAt: number;
}

export type PaymentResult = "success" | "failure" | "cancel";

export interface ReturnInfo {
  paymentId: string;
  result: PaymentResult | undefined;
}

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

const keyOf = (instanceId: string, what: string) => `entrada-shop:${instanceId}:${what}`;

export function saveResume(instanceId: string, record: Omit<ResumeRecord, "v" | "step" | "savedAt">): void {
  const value: ResumeRecord = { v: 1, step: "payment", ...record, savedAt: Date.now() };
  try {
    storage()?.setItem(keyOf(instanceId, "resume"), JSON.stringify(value));
  } catch {
    // Storage full or blocked: the return still works through the URL's payment id.
  }
}

export function readResume(instanceId: string): ResumeRecord | undefined {
  try {
    const raw = storage()?.getItem(keyOf(instanceId, "resume"));
    if (raw == null) return undefined;
    const value = JSON.parse(raw) as Partial<ResumeRecord>;
    if (value.v !== 1 || typeof value.cartId !== "string" || typeof value.paymentId !== "string") return undefined;
    if (typeof value.savedAt !== "number" || Date.now() - value.savedAt > RESUME_MAX_AGE_MS) return undefined;
    return value as ResumeRecord;
  } catch {
    return undefined;
  }
}

export function clearResume(instanceId: string): void {
  try {
    storage()?.removeItem(keyOf(instanceId, "resume"));
  } catch {
    // ignore
  }
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

/** Transaction ids already reported as purchases (so `purchase` and completion fire once per order). */
export function purchasedSet(instanceId: string): { has(id: string): boolean; add(id: string): void } {
  const key = keyOf(instanceId, "purchased");
  const memory = new Set<string>();
  const load = (): string[] => {
    try {
      const raw = storage()?.getItem(key);
      return raw == null ? [] : (JSON.parse(raw) as string[]);
    } catch {
      return [];
    }
  };
  return {
    has: (id) => memory.has(id) || load().includes(id),
    add: (id) => {
      memory.add(id);
      try {
        storage()?.setItem(key, JSON.stringify([...load().filter((x) => x !== id), id].slice(-20)));
      } catch {
        // memory still dedupes within this page
      }
    },
  };
}

/**
 * Exactly-once claims: two mounts of the same instance (React StrictMode, a host that mounts twice) that
 * both see the return share one confirmation instead of racing.
 */
const claims = new Map<string, Promise<unknown>>();

export function claimOnce<T>(key: string, run: () => Promise<T>): Promise<T> {
  const existing = claims.get(key);
  if (existing !== undefined) return existing as Promise<T>;
  const promise = run();
  claims.set(key, promise);
  return promise;
}
