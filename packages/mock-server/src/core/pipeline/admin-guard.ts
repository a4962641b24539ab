/**
 * The developer controls off loopback ("safe to share"): a transport serving other machines guards `/__mock` with
 * an admin token and shortens the secrets in what the controls answer. The token check and the masking are the
 * transport's (`node/admin.ts`: it holds the token); these stages put them in the request's one list.
 */
import type { MockResponse } from "../types.ts";
import { Answered, always, type Stage } from "./exchange.ts";

/** What a transport guarding its developer controls gives the pipeline. */
export interface AdminGuard {
  /** A `/__mock` request's target (path and query as sent): null lets it through, else the answer (401, redirect). */
  check(target: string, headers: Record<string, string>): MockResponse | null;
  /** An answer under `/__mock` with the secrets shortened. */
  mask(response: MockResponse): MockResponse;
}

/**
 * The target of a request for the developer controls, from the root or below the base path where routing finds them
 * too (`/api/__mock/…`), as the controls see it; null for any other request.
 */
function controlTarget(sent: string, mountPath: string): string | null {
  if (sent.startsWith("/__mock")) return sent;
  if (mountPath !== "" && sent.startsWith(`${mountPath}/__mock`)) return sent.slice(mountPath.length);
  return null;
}

/** The admin guard: a `/__mock` request without the admin token is answered here (before anything is read). */
export function adminGuard(guard: AdminGuard, mountPath: string): Stage {
  return (ex) => {
    const target = controlTarget(ex.sent, mountPath);
    if (target === null) return;
    const refused = guard.check(target, ex.headers);
    if (refused) throw new Answered(refused);
  };
}

/** After every answer under `/__mock`: its secrets shortened, the last thing done before it leaves. */
export function maskControlSecrets(guard: AdminGuard, mountPath: string): Stage {
  return always((ex) => {
    if (ex.response && controlTarget(ex.sent, mountPath) !== null) ex.response = guard.mask(ex.response);
  });
}
