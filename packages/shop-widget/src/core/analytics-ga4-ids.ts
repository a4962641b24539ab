/**
 * The visitor's GA4 client and session ids, handed to the API with the checkout (`CheckoutRequest.analytics`) so a
 * server-side `purchase` (from the `cart.completed` webhook) joins the browser's visitor and session. Read only
 * when the host set `analytics.measurementId` (its statement that the visitor consented to analytics). Only the
 * journey actions import it, so it loads with the later steps, not in the first-load chunk (the size bench checks).
 */

import type { AnalyticsIds } from "@entrada/sdk";

/** `CheckoutRequest.analytics` (the contract's `AnalyticsIds`). */
export type Ga4Ids = AnalyticsIds;

/** How long the checkout waits for gtag's answer before it reads the cookies instead. */
export const GTAG_WAIT_MS = 300;

const MEASUREMENT_ID = /^G-[A-Z0-9]{1,20}$/;
// The contract's patterns: an id the API would refuse is never sent (it would fail the checkout).
const CLIENT_ID = /^[0-9]{1,20}\.[0-9]{1,20}$/;
const SESSION_ID = /^[0-9]{1,20}$/;

function cookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

function ids(clientId: unknown, sessionId: unknown): Ga4Ids | undefined {
  const client = String(clientId ?? "");
  if (!CLIENT_ID.test(client)) return undefined;
  const session = String(sessionId ?? "");
  return SESSION_ID.test(session) ? { ga4ClientId: client, ga4SessionId: session } : { ga4ClientId: client };
}

/**
 * From a `document.cookie` string: `_ga` = `GA1.<n>.<random>.<first visit>` → client id `<random>.<first visit>`;
 * `_ga_<container>` = `GS1.1.<session>.…` or `GS2.1.s<session>$o…` → session id.
 */
export function ga4IdsFromCookies(cookies: string, measurementId: string): Ga4Ids | undefined {
  const client = /^GA\d\.\d+\.(\d+\.\d+)$/.exec(cookie(cookies, "_ga") ?? "")?.[1];
  const session = /^GS\d\.\d+\.s?(\d+)/.exec(cookie(cookies, `_ga_${measurementId.slice(2)}`) ?? "")?.[1];
  return ids(client, session);
}

type Gtag = (command: "get", target: string, field: string, callback: (value: unknown) => void) => void;

/**
 * Asks `gtag('get', measurementId, 'client_id' | 'session_id', …)` when gtag is on the page, waiting at most
 * `waitMs` (gtag answers once its library has loaded; a blocked library never does), else reads the cookies.
 * Never rejects and never throws: without valid ids the checkout simply goes without.
 */
export function readGa4Ids(
  measurementId: string | undefined,
  scope: { gtag?: unknown; document?: { cookie: string } } = globalThis,
  waitMs = GTAG_WAIT_MS,
): Promise<Ga4Ids | undefined> {
  if (measurementId === undefined || !MEASUREMENT_ID.test(measurementId)) return Promise.resolve(undefined);
  const fromCookies = () => {
    try {
      return ga4IdsFromCookies(scope.document?.cookie ?? "", measurementId);
    } catch {
      return undefined;
    }
  };
  const gtag = scope.gtag;
  if (typeof gtag !== "function") return Promise.resolve(fromCookies());
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fromCookies()), waitMs);
    const ask = (field: string) =>
      new Promise<unknown>((answer) => {
        try {
          (gtag as Gtag)("get", measurementId, field, answer);
        } catch {
          answer(undefined);
        }
      });
    Promise.all([ask("client_id"), ask("session_id")]).then(([client, session]) => {
      clearTimeout(timer);
      resolve(ids(client, session) ?? fromCookies());
    });
  });
}
