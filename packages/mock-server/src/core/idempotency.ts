/**
 * Idempotency-Key handling (draft-ietf-httpapi-idempotency-key-header, Stripe's practice): keys are
 * scoped to (client, method, path) and bound to a fingerprint of the request body.
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

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private operations = 0;
  ttlMs: number;
  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
  }

  static scope(client: string, method: string, path: string, key: string): string {
    return `${client}\u0000${method}\u0000${path}\u0000${key}`;
  }

  begin(scope: string, print: string, now: number): IdempotencyOutcome {
    if (++this.operations % 1000 === 0) this.sweep(now);
    const entry = this.entries.get(scope);
    if (entry && entry.expiresAt > now) {
      if (entry.fingerprint !== print) return { kind: "reused" };
      if (entry.response === null) return { kind: "in-flight" };
      return { kind: "replay", response: entry.response };
    }
    this.entries.set(scope, { fingerprint: print, response: null, expiresAt: now + this.ttlMs });
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

  private sweep(now: number): void {
    for (const [scope, entry] of this.entries) {
      if (entry.expiresAt <= now && entry.response !== null) this.entries.delete(scope);
    }
  }
}
