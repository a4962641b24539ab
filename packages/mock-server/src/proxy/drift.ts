/**
 * The drift seen so far: per operation, rule and pointer, how often, when first and last, the first message and
 * one sanitized example exchange. Bounded: at most `maxEntries` distinct differences (later new ones are only
 * counted in `dropped`), each example's body cut at `maxExampleBytes`. Array indices are folded when grouping
 * (`/body/items/3/name` is counted with `/body/items/0/name`); the pointer shown is the first one seen.
 */
import type { Violation } from "../core/contract.ts";
import { sanitizeBody, sanitizeHeaders, sanitizePath, sanitizeText } from "./sanitize.ts";

/** The operation id a request that matches no operation of the contract is reported under. */
export const NO_OPERATION = "(no operation)";

export interface DriftExample {
  request: { method: string; path: string };
  response: {
    status: number;
    headers: Record<string, string>;
    body: { json?: unknown; text?: string; truncated?: boolean } | null;
  };
}

export interface DriftEntry {
  operationId: string;
  method: string;
  template: string;
  rule: Violation["rule"];
  pointer: string;
  message: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
  example: DriftExample;
}

export interface DriftReport {
  upstream: string | null;
  since: string;
  /** Answers checked, and how many of them conformed. */
  checked: number;
  conforming: number;
  /** Answers the proxy gave from the local mock (`--fallback`). */
  fallbacks: number;
  /** Requests the upstream did not answer (the proxy's 502, without `--fallback`). */
  unreachable: number;
  /** Distinct differences not kept because the store was full. */
  dropped: number;
  maxEntries: number;
  /** Where the answers differ from the contract, per operation: the drift. */
  operations: OperationDrift[];
  /** Requests (from the proxy's clients) that break the contract: rule `request`, not the upstream's drift. */
  requests: OperationDrift[];
}

export interface OperationDrift {
  operationId: string;
  method: string;
  template: string;
  count: number;
  drift: DriftEntry[];
}

export interface Observed {
  operationId: string;
  method: string;
  template: string;
  /** The request path with its query (sanitized before it is kept). */
  path: string;
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string | null;
}

/** Only the response headers an example needs to be read (credentials never; see sanitize.ts). */
const EXAMPLE_HEADERS = [
  "content-type",
  "content-language",
  "x-log-id",
  "idempotent-replayed",
  "location",
  "retry-after",
  "www-authenticate",
];

export class DriftStore {
  private readonly entries = new Map<string, DriftEntry>();
  private readonly since = new Date().toISOString();
  checked = 0;
  conforming = 0;
  fallbacks = 0;
  unreachable = 0;
  dropped = 0;

  constructor(
    readonly upstream: string | null,
    readonly maxEntries = 500,
    readonly maxExampleBytes = 4096,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Counts one checked answer and its violations. */
  record(observed: Observed, violations: readonly Violation[]): void {
    this.checked++;
    if (violations.every((v) => v.rule === "request")) this.conforming++;
    if (violations.length === 0) return;
    const at = new Date(this.now()).toISOString();
    for (const violation of violations) {
      const key = `${groupOf(observed)} ${violation.rule} ${violation.pointer.replace(/\/\d+(?=\/|$)/g, "/*")}`;
      const entry = this.entries.get(key);
      if (entry) {
        entry.count++;
        entry.lastSeen = at;
        continue;
      }
      if (this.entries.size >= this.maxEntries) {
        this.dropped++;
        continue;
      }
      this.entries.set(key, {
        operationId: observed.operationId,
        method: observed.method,
        template: observed.operationId === NO_OPERATION ? sanitizePath(observed.template) : observed.template,
        rule: violation.rule,
        pointer: violation.pointer,
        message: sanitizeText(violation.message),
        count: 1,
        firstSeen: at,
        lastSeen: at,
        example: this.example(observed),
      });
    }
  }

  private example(observed: Observed): DriftExample {
    const headers: Record<string, string> = {};
    for (const name of EXAMPLE_HEADERS) {
      const value = observed.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    return {
      request: { method: observed.method, path: sanitizePath(observed.path) },
      response: {
        status: observed.status,
        headers: sanitizeHeaders(headers),
        body: sanitizeBody(observed.body, observed.headers["content-type"], this.maxExampleBytes),
      },
    };
  }

  /** Forgets everything (the report's "Clear" button, `DELETE /__mock/drift`). */
  clear(): void {
    this.entries.clear();
    this.checked = 0;
    this.conforming = 0;
    this.fallbacks = 0;
    this.unreachable = 0;
    this.dropped = 0;
  }

  report(): DriftReport {
    const entries = [...this.entries.values()];
    return {
      upstream: this.upstream,
      since: this.since,
      checked: this.checked,
      conforming: this.conforming,
      fallbacks: this.fallbacks,
      unreachable: this.unreachable,
      dropped: this.dropped,
      maxEntries: this.maxEntries,
      operations: byOperation(entries.filter((e) => e.rule !== "request")),
      requests: byOperation(entries.filter((e) => e.rule === "request")),
    };
  }
}

/**
 * What a difference is filed under: its operation, or — for a request that matches no operation — its method and
 * path, so each unmatched route is listed on its own.
 */
function groupOf(entry: { operationId: string; method: string; template: string }): string {
  return entry.operationId === NO_OPERATION ? `${entry.method} ${entry.template}` : entry.operationId;
}

function byOperation(entries: readonly DriftEntry[]): OperationDrift[] {
  const grouped = new Map<string, OperationDrift>();
  for (const entry of entries) {
    const group = groupOf(entry);
    let op = grouped.get(group);
    if (!op) {
      op = {
        operationId: entry.operationId,
        method: entry.method,
        template: entry.template,
        count: 0,
        drift: [],
      };
      grouped.set(group, op);
    }
    op.count += entry.count;
    op.drift.push(entry);
  }
  return [...grouped.values()].sort(
    (a, b) => a.operationId.localeCompare(b.operationId) || groupOf(a).localeCompare(groupOf(b)),
  );
}
