import { PARAM_INSTANCE, PARAM_PAYMENT, PARAM_RESULT } from "./resume";

const PARAMS = [PARAM_INSTANCE, PARAM_PAYMENT, PARAM_RESULT];

/**
 * The return URL, the resume record and the completed-orders set in sessionStorage (namespaced per widget instance).
 * Loaded with the journey's actions, not with the first render.
 */

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

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

const keyOf = (instanceId: string, what: string) => `entrada-shop:${instanceId}:${what}`;

/** The page the payment provider sends the buyer back to: `base` plus this instance's marker. */
export function buildReturnUrl(base: string, instanceId: string): string {
  const url = new URL(base);
  for (const name of PARAMS) url.searchParams.delete(name);
  url.searchParams.set(PARAM_INSTANCE, instanceId);
  url.hash = "";
  return url.toString();
}

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
    if (value.v !== 1 || typeof value.cartId !== "string" || typeof value.paymentId !== "string")
      return undefined;
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
  // A failure is not kept: "Try again" runs it anew.
  promise.catch(() => claims.delete(key));
  return promise;
}
