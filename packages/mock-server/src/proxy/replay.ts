/**
 * Idempotency replay semantics, checked from the outside: the first answer to a write with an `Idempotency-Key` is
 * remembered (status and `X-Log-Id`, keyed by a hash of the client's credentials + method + path + key, never the
 * credentials themselves); a later write with the same key and the same body is a replay and must carry
 * `Idempotent-Replayed: true`, the original `X-Log-Id` and the same resource (the body's `id`, or the body itself
 * when it has none). A first answer must not say `Idempotent-Replayed: true`. Only successful first answers are
 * remembered (the contract stores executed results; a rejected request is not replayed). Bounded: at most `max`
 * keys, oldest first out, each for `ttlMs`.
 */
import { createHash } from "node:crypto";
import type { Violation } from "../core/contract.ts";

interface Remembered {
  status: number;
  logId: string | undefined;
  body: string;
  /** What the answer was about: `id <value>` of a JSON body with an `id`, else a hash of the body. */
  resource: string | null;
  at: number;
}

/** The resource an answer carries (see `Remembered.resource`); null when there is no body to tell. */
function resourceOf(body: Uint8Array | string | null | undefined): string | null {
  if (body === null || body === undefined || body.length === 0) return null;
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  try {
    const value = JSON.parse(text) as unknown;
    if (value !== null && typeof value === "object" && "id" in value) return `id ${String(value.id)}`;
  } catch {
    // Not JSON: the bytes themselves.
  }
  return `body ${createHash("sha256").update(text).digest("base64url")}`;
}

export interface ReplayRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: Uint8Array | null;
}

export class ReplayTracker {
  private readonly seen = new Map<string, Remembered>();

  constructor(
    private readonly max = 5_000,
    private readonly ttlMs = 24 * 3600_000,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.seen.size;
  }

  private keyOf(request: ReplayRequest): string | null {
    const key = request.headers["idempotency-key"];
    if (key === undefined || request.method === "GET" || request.method === "HEAD") return null;
    return createHash("sha256")
      .update(
        `${request.headers.authorization ?? ""}\u0000${request.method}\u0000${request.path}\u0000${key}`,
      )
      .digest("base64url");
  }

  private fingerprint(body: Uint8Array | null): string {
    return createHash("sha256")
      .update(body ?? new Uint8Array())
      .digest("base64url");
  }

  /**
   * Checks an answer against an earlier one with the same key and remembers a first successful answer. Returns the
   * replay violations (empty when it is not a replay, or a correct one).
   */
  observe(
    request: ReplayRequest,
    status: number,
    headers: Record<string, string>,
    responseBody?: Uint8Array | string | null,
  ): Violation[] {
    const key = this.keyOf(request);
    if (key === null) return [];
    const now = this.now();
    let earlier = this.seen.get(key);
    if (earlier && now - earlier.at > this.ttlMs) {
      this.seen.delete(key);
      earlier = undefined;
    }
    const body = this.fingerprint(request.body);
    if (earlier && earlier.body === body && status === earlier.status) {
      const out: Violation[] = [];
      if (headers["idempotent-replayed"] !== "true")
        out.push({
          rule: "replay",
          pointer: "/header/idempotent-replayed",
          message: "A replayed write (same Idempotency-Key and body) must carry Idempotent-Replayed: true.",
        });
      if (earlier.logId !== undefined && headers["x-log-id"] !== earlier.logId)
        out.push({
          rule: "replay",
          pointer: "/header/x-log-id",
          message: `A replayed write must carry the original X-Log-Id (${earlier.logId}), got ${headers["x-log-id"] ?? "none"}.`,
        });
      const resource = resourceOf(responseBody);
      if (earlier.resource !== null && resource !== null && resource !== earlier.resource)
        out.push({
          rule: "replay",
          pointer: "/body",
          message: `A replayed write must answer what the first one did (${earlier.resource}), got ${resource}.`,
        });
      return out;
    }
    if (earlier) return [];
    const out: Violation[] = [];
    // Nothing was answered with this key before (as far as this tracker saw): not a replay.
    if (headers["idempotent-replayed"] === "true")
      out.push({
        rule: "replay",
        pointer: "/header/idempotent-replayed",
        message: "The first write with an Idempotency-Key must not carry Idempotent-Replayed: true.",
      });
    if (status >= 200 && status < 300) {
      if (this.seen.size >= this.max) {
        const oldest = this.seen.keys().next().value;
        if (oldest !== undefined) this.seen.delete(oldest);
      }
      this.seen.set(key, {
        status,
        logId: headers["x-log-id"],
        body,
        resource: resourceOf(responseBody),
        at: now,
      });
    }
    return out;
  }
}
