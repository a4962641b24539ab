/**
 * `--record DIR`: saves each exchange the proxy relays, sanitized (see sanitize.ts), as
 * `DIR/<operationId>/<n>-<status>.json`, for `entrada-mock seed --from DIR`. Bounded: at most `maxPerOperation`
 * files per operation and `maxFiles` in all (later exchanges are not recorded); bodies longer than `maxBodyBytes`
 * are cut (and marked).
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
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

/** A recording file: `<n>-<status>.json`. */
const RECORDING_FILE = /^(\d{4,})-\d{3}\.json$/;
/** What `seed --from` writes next to the recordings. */
const SEED_OUTPUT = new Set(["seed.json", "examples"]);

/** The recording directory holds something this tool did not write: refused, so nothing of it is overwritten. */
export class ForeignRecordingDirError extends Error {}

/**
 * What a recording directory already holds, per operation: the highest recording number (a new one continues
 * after it, never over it). Throws `ForeignRecordingDirError` naming the first entries that are not recordings,
 * `seed.json` or `examples/`.
 */
function existingRecordings(dir: string): Map<string, number> {
  const highest = new Map<string, number>();
  if (!existsSync(dir)) return highest;
  const foreign: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SEED_OUTPUT.has(entry.name)) continue;
    if (!entry.isDirectory() || !/^[A-Za-z][A-Za-z0-9]*$/.test(entry.name)) {
      foreign.push(entry.name);
      continue;
    }
    let max = 0;
    for (const file of readdirSync(join(dir, entry.name), { withFileTypes: true })) {
      const match = file.isFile() ? RECORDING_FILE.exec(file.name) : null;
      if (match) max = Math.max(max, Number(match[1]));
      else foreign.push(`${entry.name}/${file.name}`);
    }
    highest.set(entry.name, max);
  }
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 5).join(", ");
    throw new ForeignRecordingDirError(
      `--record ${dir}: the directory holds files that are not recordings (${shown}${foreign.length > 5 ? ", …" : ""}); ` +
        "choose an empty or new directory, or one an earlier --record wrote. Nothing was written.",
    );
  }
  return highest;
}

export class Recorder {
  /** Recordings kept per operation (this run's and an earlier run's in the same directory). */
  private readonly counts = new Map<string, number>();
  /** The last number used per operation; the next file takes the one after it. */
  private readonly numbers: Map<string, number>;
  private total = 0;
  /** Exchanges not recorded because a cap was reached. */
  skipped = 0;

  constructor(
    readonly dir: string,
    readonly limits: RecorderLimits = { maxPerOperation: 50, maxFiles: 2_000, maxBodyBytes: 256 * 1024 },
  ) {
    this.numbers = existingRecordings(dir);
    mkdirSync(dir, { recursive: true });
    for (const [operationId] of this.numbers) {
      const files = readdirSync(join(dir, operationId)).length;
      this.counts.set(operationId, files);
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
    const number = (this.numbers.get(input.operationId) ?? 0) + 1;
    this.numbers.set(input.operationId, number);
    const file = join(folder, `${String(number).padStart(4, "0")}-${input.status}.json`);
    writeFileSync(file, `${JSON.stringify(recording, null, 2)}\n`);
    return file;
  }
}
