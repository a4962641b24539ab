/**
 * `--record DIR`: saves each exchange the proxy relays, sanitized (see sanitize.ts), as
 * `DIR/<operationId>/<n>-<status>.json`, for `entrada-mock seed --from DIR`. Bounded: at most `maxPerOperation`
 * files per operation and `maxFiles` in all (later exchanges are not recorded); bodies longer than `maxBodyBytes`
 * are cut (and marked).
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sanitizeBody, sanitizeHeaders, sanitizePath } from "./sanitize.ts";

export interface Recording {
  operationId: string;
  method: string;
  template: string;
  path: string;
  /** Where the answer came from: the upstream, or the local mock under `--fallback`. */
  source: "upstream" | "local";
  request: { headers: Record<string, string>; body: ReturnType<typeof sanitizeBody> };
  response: { status: number; headers: Record<string, string>; body: ReturnType<typeof sanitizeBody> };
}

export interface RecordInput {
  operationId: string;
  method: string;
  template: string;
  path: string;
  source: "upstream" | "local";
  requestHeaders: Record<string, string | string[] | undefined>;
  requestBody: Uint8Array | null;
  status: number;
  responseHeaders: Record<string, string | string[] | undefined>;
  responseBody: Uint8Array | null;
  truncated: boolean;
}

export interface RecorderLimits {
  maxPerOperation: number;
  maxFiles: number;
  maxBodyBytes: number;
}

/** The request headers worth keeping (credentials are never among them). */
const REQUEST_HEADERS = ["accept", "accept-language", "content-type", "idempotency-key", "origin"];
/** The response headers worth keeping. */
const RESPONSE_HEADERS = [
  "content-type",
  "content-language",
  "x-log-id",
  "idempotent-replayed",
  "location",
  "etag",
  "retry-after",
  "odata-version",
];

function pick(headers: Record<string, string | string[] | undefined>, names: readonly string[]) {
  const out: Record<string, string | string[] | undefined> = {};
  for (const name of names) if (headers[name] !== undefined) out[name] = headers[name];
  return sanitizeHeaders(out);
}

export class Recorder {
  private readonly counts = new Map<string, number>();
  private total = 0;
  /** Exchanges not recorded because a cap was reached. */
  skipped = 0;

  constructor(
    readonly dir: string,
    readonly limits: RecorderLimits = { maxPerOperation: 50, maxFiles: 2_000, maxBodyBytes: 256 * 1024 },
  ) {
    mkdirSync(dir, { recursive: true });
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const files = readdirSync(join(dir, entry.name)).filter((f) => f.endsWith(".json")).length;
      this.counts.set(entry.name, files);
      this.total += files;
    }
  }

  /** Writes one exchange (synchronously: small files, and a crash must not lose what was answered). */
  record(input: RecordInput): string | null {
    const count = this.counts.get(input.operationId) ?? 0;
    if (count >= this.limits.maxPerOperation || this.total >= this.limits.maxFiles) {
      this.skipped++;
      return null;
    }
    this.counts.set(input.operationId, count + 1);
    this.total++;
    const limit = this.limits.maxBodyBytes;
    const requestType = String(input.requestHeaders["content-type"] ?? "");
    const responseType = String(input.responseHeaders["content-type"] ?? "");
    const responseBody = sanitizeBody(input.responseBody, responseType, limit);
    const recording: Recording = {
      operationId: input.operationId,
      method: input.method,
      template: input.template,
      path: sanitizePath(input.path),
      source: input.source,
      request: {
        headers: pick(input.requestHeaders, REQUEST_HEADERS),
        body: sanitizeBody(input.requestBody, requestType, limit),
      },
      response: {
        status: input.status,
        headers: pick(input.responseHeaders, RESPONSE_HEADERS),
        body: input.truncated && responseBody ? { ...responseBody, truncated: true } : responseBody,
      },
    };
    const folder = join(this.dir, input.operationId);
    mkdirSync(folder, { recursive: true });
    const file = join(folder, `${String(count + 1).padStart(4, "0")}-${input.status}.json`);
    writeFileSync(file, `${JSON.stringify(recording, null, 2)}\n`);
    return file;
  }
}
