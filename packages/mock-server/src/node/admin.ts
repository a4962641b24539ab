/**
 * "Safe to share": a mock or proxy bound to a non-loopback interface protects its developer controls (`/__mock`).
 * A request there needs the admin token — `Authorization: Bearer <token>`, `X-Entrada-Admin-Token: <token>`, or
 * once in a browser `?admin_token=<token>`, which sets an HttpOnly cookie for `/__mock` — else `401` problem+json.
 * The hosted payment page (`/__mock/pay/…`) stays open: a buyer's browser is sent there by checkout. Secrets in
 * the controls' answers (client secrets, webhook secrets) are never sent in full: shown as their first 4
 * characters and an ellipsis.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { AdminGuard } from "../core/pipeline/admin-guard.ts";
import type { MockResponse } from "../core/types.ts";

export const ADMIN_HEADER = "x-entrada-admin-token";
const COOKIE = "entrada_admin";

/** Whether `host` only accepts connections from this machine. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h) || h === "::ffff:127.0.0.1";
}

/** A fresh admin token (printed at start-up when none is given). */
export function generateAdminToken(): string {
  return `adm_${randomBytes(24).toString("base64url")}`;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Paths under `/__mock` a buyer's browser must reach without the token (the hosted payment page). */
const OPEN = /^\/__mock\/pay(?:\/|\.css)/;

/**
 * Checks a `/__mock` request against the admin token (`path` with its query): null lets it through; otherwise the
 * answer (a 401 problem, or the redirect that moves a browser's `?admin_token=` into the cookie).
 */
export function checkAdmin(
  token: string,
  path: string,
  headers: Record<string, string | string[] | undefined>,
): MockResponse | null {
  const pathname = path.split("?")[0] ?? path;
  if (!(pathname === "/__mock" || pathname.startsWith("/__mock/")) || OPEN.test(pathname)) return null;
  const bearer = /^Bearer\s+(\S+)$/i.exec(String(headers.authorization ?? ""))?.[1];
  const header = headers[ADMIN_HEADER];
  const cookie = /(?:^|;\s*)entrada_admin=([^;]+)/.exec(String(headers.cookie ?? ""))?.[1];
  for (const candidate of [bearer, typeof header === "string" ? header : undefined, cookie])
    if (candidate !== undefined && same(candidate, token)) return null;
  const query = new URLSearchParams(path.includes("?") ? path.slice(path.indexOf("?") + 1) : "");
  const fromQuery = query.get("admin_token");
  if (fromQuery !== null && same(fromQuery, token)) {
    // A browser: keep the token in an HttpOnly cookie and drop it from the address bar.
    query.delete("admin_token");
    const rest = query.toString();
    return {
      status: 303,
      headers: {
        location: `${pathname}${rest ? `?${rest}` : ""}`,
        "set-cookie": `${COOKIE}=${token}; Path=/__mock; HttpOnly; SameSite=Strict`,
        "cache-control": "no-store",
      },
      body: null,
    };
  }
  return {
    status: 401,
    headers: {
      "content-type": "application/problem+json",
      "www-authenticate": 'Bearer realm="entrada-mock-admin"',
      "cache-control": "no-store",
    },
    body: JSON.stringify({
      type: "https://docs.entrada.dev/problems/admin-token-required",
      title: "Admin token required",
      status: 401,
      detail:
        "This server is reachable from other machines: its developer controls (/__mock) need the admin token printed at start-up (Authorization: Bearer <token>, X-Entrada-Admin-Token, or ?admin_token= in a browser).",
    }),
  };
}

/** The admin guard the node server adds to the request pipeline (`core/pipeline/admin-guard.ts`). */
export function adminGuard(token: string, secrets: readonly string[]): AdminGuard {
  return {
    check: (target, headers) => checkAdmin(token, target, headers),
    mask: (response) => maskSecrets(response, secrets),
  };
}

const SECRET_MEMBER = /^(?:secret|secrets|clientSecret|client_secret|previousSecret|signingSecret)$/;

function mask(value: string): string {
  return value.length <= 4 ? "…" : `${value.slice(0, 4)}…`;
}

function maskJson(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object" || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v) => maskJson(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (SECRET_MEMBER.test(key) && typeof member === "string") out[key] = mask(member);
    else if (SECRET_MEMBER.test(key) && Array.isArray(member))
      out[key] = member.map((m) => (typeof m === "string" ? mask(m) : m));
    else out[key] = maskJson(member, depth + 1);
  }
  return out;
}

/**
 * A `/__mock` answer with secrets shortened: JSON members named like a secret, and in other bodies (the HTML
 * index) each of `known` (the configured client secrets).
 */
export function maskSecrets(response: MockResponse, known: readonly string[]): MockResponse {
  if (response.body === null) return response;
  const type = response.headers["content-type"] ?? "";
  const text = typeof response.body === "string" ? response.body : new TextDecoder().decode(response.body);
  if (type.includes("json")) {
    try {
      return { ...response, body: JSON.stringify(maskJson(JSON.parse(text))) };
    } catch {
      return response;
    }
  }
  if (type.startsWith("text/")) {
    let body = text;
    for (const secret of known) if (secret.length > 0) body = body.split(secret).join(mask(secret));
    return { ...response, body };
  }
  return response;
}
