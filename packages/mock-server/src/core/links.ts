/**
 * Signed, expiring asset links (the contract's `signedUrl` scheme, DECISIONS.md "Signed asset links"):
 * `<base><path>?expires=<unix seconds>&signature=<sig>`, `sig` = unpadded base64url of
 * HMAC-SHA256(key, "GET" + LF + path + LF + expires). A link issued inside a mock session other than "default"
 * carries it first (`?mockSession=<id>&expires=…`) and the signature covers it (+ LF + id), so the link opens in
 * that session and in no other. Synchronous (noble), so views can sign while they render,
 * and platform-free (no node:crypto), so the same code runs under msw in the browser.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";

/** The mock session of requests without `X-Mock-Session`; its links carry no session. */
const DEFAULT_SESSION = "default";
/** How long a link stays valid after it was issued (24 h). */
export const LINK_TTL_SECONDS = 86_400;
const encoder = new TextEncoder();
const EXPIRES = /^\d{1,15}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Why a signed link was refused (each maps to a `401 unauthorized` detail). */
export type LinkRejection = "malformed" | "expired" | "bad-signature";

export class LinkSigner {
  private readonly key: Uint8Array;

  /** @param key the link-signing key; default 32 random bytes (one per mock instance, never handed out). */
  constructor(key?: Uint8Array | string) {
    if (typeof key === "string") this.key = encoder.encode(key);
    else if (key) this.key = key;
    else {
      this.key = new Uint8Array(32);
      crypto.getRandomValues(this.key);
    }
  }

  /**
   * The signature of `path` (relative to the base URL, as it appears in the link) valid until `expires`, bound to
   * the mock `session` unless it is the default one.
   */
  signature(path: string, expires: number, session = DEFAULT_SESSION): string {
    const bound = session === DEFAULT_SESSION ? "" : `\n${session}`;
    return base64url(hmac(sha256, this.key, encoder.encode(`GET\n${path}\n${expires}${bound}`)));
  }

  /** The query string (`[mockSession=…&]expires=…&signature=…`) of a link to `path` issued at `nowMs`. */
  query(path: string, nowMs: number, session = DEFAULT_SESSION): string {
    const expires = Math.floor(nowMs / 1000) + LINK_TTL_SECONDS;
    const prefix = session === DEFAULT_SESSION ? "" : `mockSession=${encodeURIComponent(session)}&`;
    return `${prefix}expires=${expires}&signature=${this.signature(path, expires, session)}`;
  }

  /** A handler context's `signedUrl`: links to paths below `baseUrl` in `session`, issued at `clock`'s time. */
  linker(baseUrl: string, clock: { now(): number }, session = DEFAULT_SESSION): (path: string) => string {
    return (path) => `${baseUrl}${path}?${this.query(path, clock.now(), session)}`;
  }

  /**
   * Checks a link: `expires` an integer not in the past (`nowMs`, the mock clock), the signature equal in constant
   * time. Returns null when it is valid.
   */
  verify(
    path: string,
    expires: string | undefined,
    signature: string | undefined,
    nowMs: number,
    session = DEFAULT_SESSION,
  ): LinkRejection | null {
    if (expires === undefined || signature === undefined || !EXPIRES.test(expires)) return "malformed";
    const expected = this.signature(path, Number(expires), session);
    // Compare every character whatever the input, so timing says nothing about how much of it matched.
    let diff = signature.length ^ expected.length;
    const given = SIGNATURE.test(signature) ? signature : expected.replace(/./g, "~");
    for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i);
    if (diff !== 0) return "bad-signature";
    if (Math.floor(nowMs / 1000) > Number(expires)) return "expired";
    return null;
  }
}

/**
 * Absolute, unsigned link to an API path on this mock: its base URL (origin plus any base path) and `path`, e.g.
 * `apiUrl(ctx, "/assets/v1/images/ast_1")` → `http://127.0.0.1:4010/api/assets/v1/images/ast_1`.
 */
export function apiUrl(ctx: { baseUrl?: string | undefined; url: URL }, path: string): string {
  return `${ctx.baseUrl ?? ctx.url.origin}${path}`;
}
