/**
 * Idempotency-Key handling (draft-ietf-httpapi-idempotency-key-header, Stripe's practice): keys are
 * scoped to (client, method, path) and bound to a fingerprint of the request body.
 */

import { cors } from "../cors.ts";
import { msg, pickText } from "../messages.ts";
import { stageProblem } from "../problems.ts";
import type { MockResponse } from "../types.ts";
import type { OperationRequest } from "./request.ts";

/**
 * The idempotency wrap around a handler (draft-ietf-httpapi-idempotency-key-header): a keyed write is begun before
 * the handler runs (replay, 422 reused key, 409 in flight) and its response stored after it (abandoned on a 5xx).
 */

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
}

interface Entry {
  fingerprint: string;
  response: StoredResponse | null;
  expiresAt: number;
}

export type IdempotencyOutcome =
  | { kind: "new" }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "reused" }
  | { kind: "in-flight" };

const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~:/-]+$/;
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

/** Parses an Idempotency-Key value (bare token or sf-string, 1–255 chars); null when invalid. */
export function parseIdempotencyKey(raw: string): string | null {
  if (raw.length === 0 || raw.length > 257) return null;
  const quoted = SF_STRING.exec(raw);
  const key = quoted ? (quoted[1] ?? "").replace(/\\(["\\])/g, "$1") : TOKEN.test(raw) ? raw : null;
  if (key === null || key.length === 0 || key.length > 255) return null;
  return key;
}

/** Canonical JSON (object keys sorted) so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
export function fingerprint(value: unknown): string {
  if (value === undefined) return "";
  return canonical(value);
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value as object).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

/** Default cap on kept keys per session (a stored response is ≈ 1–3 KB: ≈ 20 MB at most). */
export const DEFAULT_MAX_IDEMPOTENCY_KEYS = 10_000;

/** Most expired keys one `begin` evicts, so a backlog (after the clock jumped) never stalls one request. */
const EVICT_BUDGET = 64;

/**
 * Keys live `ttlMs` (24 h) on the mock clock and are evicted when they expire: the map is kept in creation order
 * (a key created again moves to the back), so every `begin` drops expired keys from the front — amortized O(1).
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  ttlMs: number;
  /** Most keys kept; beyond it the oldest key goes first, expired or not (bounded by design, not only by TTL). */
  maxKeys: number;
  constructor(ttlMs: number, maxKeys = DEFAULT_MAX_IDEMPOTENCY_KEYS) {
    this.ttlMs = ttlMs;
    this.maxKeys = maxKeys;
  }

  static scope(client: string, method: string, path: string, key: string): string {
    return `${client}\u0000${method}\u0000${path}\u0000${key}`;
  }

  begin(scope: string, print: string, now: number): IdempotencyOutcome {
    this.evict(now);
    const entry = this.entries.get(scope);
    if (entry && entry.expiresAt > now) {
      if (entry.fingerprint !== print) return { kind: "reused" };
      if (entry.response === null) return { kind: "in-flight" };
      return { kind: "replay", response: entry.response };
    }
    // Delete first so the new entry goes to the back: the map stays in creation (≈ expiry) order.
    if (entry) this.entries.delete(scope);
    this.entries.set(scope, { fingerprint: print, response: null, expiresAt: now + this.ttlMs });
    // The map is in creation order: the first key is the oldest.
    while (this.entries.size > this.maxKeys) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return { kind: "new" };
  }

  complete(scope: string, response: StoredResponse): void {
    const entry = this.entries.get(scope);
    if (entry) entry.response = response;
  }

  /** Forgets a key whose request did not execute (or failed with a 5xx), so the client may retry. */
  abandon(scope: string): void {
    this.entries.delete(scope);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Drops expired keys from the front (oldest first), at most `EVICT_BUDGET` per call. A key whose request is
   * still running when it expires goes too: `complete` then finds nothing and stores nothing, as for any
   * expired key. If the clock was set back, keys behind a not-yet-expired one wait for it.
   */
  evict(now: number): void {
    let budget = EVICT_BUDGET;
    for (const [scope, entry] of this.entries) {
      if (entry.expiresAt > now || budget-- === 0) break;
      this.entries.delete(scope);
    }
  }
}

const REUSED = msg("core.pipeline.idempotency.this-key-was-already-used-for");

/**
 * Begins a write: without a key it only evicts a few expired keys (so they go even when no keyed write follows)
 * and returns null; with one it returns the store scope to complete later, or the response to answer now.
 */
export function beginWrite(
  rq: OperationRequest,
  key: string | null,
): string | null | { replay: MockResponse } {
  const { session, auth, now } = rq;
  if (key === null) {
    if (rq.op.write) session.idempotency.evict(now);
    return null;
  }
  const client = auth ? (auth.kind === "session" ? `session:${auth.sessionId}` : auth.clientId) : "anonymous";
  const scope = IdempotencyStore.scope(client, rq.method, rq.pathname, key);
  const outcome = session.idempotency.begin(scope, fingerprint(rq.body), now);
  if (outcome.kind === "replay") {
    const stored = outcome.response;
    const replayHeaders: Record<string, string> = {
      ...stored.headers,
      ...rq.rateHeaders,
      "idempotent-replayed": "true",
    };
    return { replay: cors({ status: stored.status, headers: replayHeaders, body: stored.body }, rq.origin) };
  }
  if (outcome.kind === "reused") {
    // Names the header, so operations whose 422 is a ValidationProblem (errors required) get a conforming body.
    throw stageProblem("idempotency-key-reused", {
      errors: [{ pointer: "/header/idempotency-key", detail: pickText(REUSED, rq.culture) }],
    });
  }
  if (outcome.kind === "in-flight") {
    throw stageProblem("idempotency-key-in-use", {
      headers: { "retry-after": "1" },
    });
  }
  return scope;
}

/** Stores the keyed write's response for replays (without its CORS headers), or abandons the key on a 5xx. */
export function completeWrite(rq: OperationRequest, scope: string, response: MockResponse): void {
  const store = rq.session.idempotency;
  if (response.status >= 500) {
    store.abandon(scope);
    return;
  }
  const { "access-control-allow-origin": _a, vary: _v, ...stored } = response.headers;
  store.complete(scope, {
    status: response.status,
    headers: { ...stored, vary: "Accept-Language" },
    body: response.body,
  });
}
