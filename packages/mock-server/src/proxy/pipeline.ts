/**
 * The contract proxy's request pipeline, in the order a request goes through it:
 *
 *   1. developer controls   `/__mock/drift` (the report) here, every other `/__mock` path to the local mock
 *   2. check the request    route, parameters and body against the contract (the mock's own validators)
 *   3. answer               from the upstream; from the local mock under `--fallback` when the upstream is
 *                           unreachable or answers 501; else a 502 problem naming the upstream
 *   4. check the response   status, media type, schema, headers, problem shape, replay (contract.ts, replay.ts)
 *   5. report and record    the drift store, `X-Entrada-Contract`, the recorder
 *
 * The response goes to the client unchanged (the upstream's bytes), plus `X-Entrada-Contract` and, for a local
 * answer, `X-Entrada-Source: local-fallback`. A body longer than `maxCheckedBytes` is streamed through as it
 * arrives; only its status and headers are checked (`X-Entrada-Contract` says so).
 */
import type { Readable } from "node:stream";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { OperationSpec } from "../core/document.ts";
import type { MockCore } from "../core/engine.ts";
import { queryRecord } from "../core/target.ts";
import type { MockResponse } from "../core/types.ts";
import { FORM } from "../core/validation.ts";
import { type ContractChecker, contractHeader, type Violation } from "./contract.ts";
import type { DriftStore } from "./drift.ts";
import { DRIFT_PAGE_CSP, driftPage } from "./drift-page.ts";
import type { Recorder } from "./recorder.ts";
import type { ReplayTracker } from "./replay.ts";
import { sanitizePath } from "./sanitize.ts";
import { type Upstream, UpstreamUnreachable, withoutHopByHop } from "./upstream.ts";

/** What the proxy's stages share: each stage takes only the ones it needs. */
export interface ProxyServices {
  upstream: Upstream;
  /** The local mock: `/__mock` controls, request validators, `--fallback` answers. */
  core: MockCore;
  checker: ContractChecker;
  replay: ReplayTracker;
  drift: DriftStore;
  recorder: Recorder | null;
  fallback: boolean;
  /** Bodies up to this size are buffered and checked; longer ones are streamed through unchecked. */
  maxCheckedBytes: number;
  log: (line: string) => void;
}

/** A request as the proxy received it (body buffered: API request bodies are small). */
export interface ProxyRequest {
  method: string;
  /** Path with query, below the proxy's root. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array | null;
}

/** The answer of stage 3, before its body is read. */
interface Answer {
  /** `proxy`: the proxy's own 502 (the upstream did not answer): nothing of the upstream to check. */
  source: "upstream" | "local" | "proxy";
  status: number;
  headers: Record<string, string | string[]>;
  /** A buffered body (local answers, problems) or the upstream's stream. */
  body: Uint8Array | Readable | null;
}

/** What the transport writes: status, headers, and the body (buffered, or a stream to pipe). */
export interface ProxyReply {
  status: number;
  headers: Record<string, string | string[]>;
  body: Uint8Array | string | null;
  /** The rest of an upstream body too long to check: written after `body` (its first bytes). */
  rest?: Readable;
}

const encoder = new TextEncoder();

export async function proxyRequest(services: ProxyServices, request: ProxyRequest): Promise<ProxyReply> {
  const pathname = request.path.split("?")[0] ?? "/";
  // 1. Developer controls.
  if (pathname === "/__mock/drift") return driftControl(services.drift, request);
  if (pathname === "/__mock" || pathname.startsWith("/__mock/"))
    return fromMock(await services.core.handle(mockRequest(request)));

  // 2. The request against the contract.
  const op = services.checker.operationFor(request.method, pathname);
  const requestViolations = op ? checkRequest(services.core, op, request) : [];

  // 3. The answer.
  const answer = await answerRequest(services, request);
  if (answer.source === "proxy") {
    services.drift.unreachable++;
    services.log(`${request.method} ${sanitizePath(request.path)} → 502  upstream unreachable`);
    return {
      status: answer.status,
      headers: { ...answer.headers, "x-entrada-contract": "upstream unreachable" },
      body: answer.body as Uint8Array,
    };
  }

  // 4. The response against the contract (its body read up to the cap).
  const { kept, rest, truncated } = await readBounded(answer.body, services.maxCheckedBytes);
  const headers = flatHeaders(answer.headers);
  const checked = services.checker.check({
    method: request.method,
    path: pathname,
    status: answer.status,
    headers,
    // Over the cap only the status, the headers and the media type are checked (the bytes kept are a prefix).
    body: truncated ? kept : decoded(kept, headers["content-encoding"]),
    truncated,
  });
  const violations = [
    ...requestViolations,
    ...checked.violations,
    ...services.replay.observe(
      { method: request.method, path: pathname, headers: flatHeaders(request.headers), body: request.body },
      answer.status,
      headers,
    ),
  ];

  // 5. Report, record, reply.
  const operationId = checked.operation?.operationId ?? "(no operation)";
  const observed = {
    operationId,
    method: request.method,
    template: checked.operation?.template ?? pathname,
    path: request.path,
    status: answer.status,
    headers,
    body: truncated ? null : decoded(kept, headers["content-encoding"]),
  };
  services.drift.record(observed, violations);
  if (answer.source === "local") services.drift.fallbacks++;
  if (services.recorder && checked.operation)
    services.recorder.record({
      ...observed,
      source: answer.source,
      requestHeaders: request.headers,
      requestBody: request.body,
      responseHeaders: answer.headers,
      responseBody: observed.body,
      truncated,
    });
  const verdict = truncated
    ? `${contractHeader(violations)}; body not checked (over ${services.maxCheckedBytes} bytes)`
    : contractHeader(violations);
  services.log(
    `${request.method} ${sanitizePath(request.path)} → ${answer.status}${answer.source === "local" ? " (local fallback)" : ""}  ${verdict}`,
  );
  const replyHeaders: Record<string, string | string[]> = {
    ...answer.headers,
    "x-entrada-contract": verdict,
  };
  if (answer.source === "local") replyHeaders["x-entrada-source"] = "local-fallback";
  exposeToBrowsers(replyHeaders);
  return { status: answer.status, headers: replyHeaders, body: kept, ...(rest ? { rest } : {}) };
}

/** Stage 2: parameters and body of the request, pointers into the request (`/query/limit`, `/body/items/0`). */
function checkRequest(core: MockCore, op: OperationSpec, request: ProxyRequest): Violation[] {
  const url = new URL(request.path, "http://proxy.invalid");
  const match = core.router.match(request.method, url.pathname);
  const out: Violation[] = [];
  const add = (errors: Array<{ pointer: string; detail: string }>) => {
    for (const e of errors) out.push({ rule: "request", pointer: e.pointer, message: e.detail });
  };
  const headers = flatHeaders(request.headers);
  if (match.kind === "found") add(core.validator.params(op, "path", match.params, "en-GB"));
  add(core.validator.params(op, "query", queryRecord(url.searchParams), "en-GB"));
  add(core.validator.params(op, "header", headers, "en-GB"));
  if (op.body && request.body && request.body.byteLength > 0) {
    const type = (headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (!op.body.media.has(type)) {
      out.push({
        rule: "request",
        pointer: "/header/content-type",
        message: `Content-Type ${type || "(none)"} is not declared for ${op.operationId}'s body.`,
      });
    } else {
      const text = new TextDecoder().decode(request.body);
      let value: unknown;
      try {
        value = type === FORM ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text);
        add(core.validator.body(op, type, value, "en-GB"));
      } catch {
        out.push({ rule: "request", pointer: "/body", message: "The request body is not JSON." });
      }
    }
  } else if (op.body?.required && op.method !== "GET") {
    out.push({ rule: "request", pointer: "/body", message: `${op.operationId} requires a body.` });
  }
  return out;
}

/** Stage 3: the upstream's answer, or the local mock's (`--fallback`), or a 502 naming the upstream. */
async function answerRequest(services: ProxyServices, request: ProxyRequest): Promise<Answer> {
  const { upstream, fallback } = services;
  try {
    const answer = await upstream.send(request.method, request.path, request.headers, request.body);
    if (answer.status === 501 && fallback) {
      answer.body.resume();
      return local(services.core, request);
    }
    return { source: "upstream", ...answer, headers: withoutHopByHopKeepLength(answer.headers) };
  } catch (error) {
    if (!(error instanceof UpstreamUnreachable)) throw error;
    if (fallback) return local(services.core, request);
    const body = {
      type: "https://docs.entrada.dev/problems/upstream-unreachable",
      title: "Upstream unreachable",
      status: 502,
      detail: `The contract proxy could not reach the upstream ${error.upstream} (${error.reason}). Start it, or run the proxy with --fallback to answer from the local mock.`,
      upstream: error.upstream,
    };
    return {
      source: "proxy",
      status: 502,
      headers: { "content-type": "application/problem+json", "cache-control": "no-store" },
      body: encoder.encode(JSON.stringify(body)),
    };
  }
}

async function local(core: MockCore, request: ProxyRequest): Promise<Answer> {
  const response = await core.handle(mockRequest(request));
  const body = typeof response.body === "string" ? encoder.encode(response.body) : response.body;
  return { source: "local", status: response.status, headers: response.headers, body };
}

function withoutHopByHopKeepLength(
  headers: Record<string, string | string[]>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = withoutHopByHop(headers);
  // Repeated headers stay repeated (Set-Cookie); the length is the upstream's, the bytes are unchanged.
  if (Array.isArray(headers["set-cookie"])) out["set-cookie"] = headers["set-cookie"];
  if (headers["content-length"] !== undefined) out["content-length"] = headers["content-length"];
  return out;
}

function mockRequest(request: ProxyRequest) {
  return {
    method: request.method,
    url: `http://proxy.invalid${request.path}`,
    headers: flatHeaders(request.headers),
    body: request.body,
  };
}

function fromMock(response: MockResponse): ProxyReply {
  return { status: response.status, headers: response.headers, body: response.body };
}

/** `GET /__mock/drift`: JSON for programs, HTML for a browser; `DELETE` clears it. */
function driftControl(drift: DriftStore, request: ProxyRequest): ProxyReply {
  if (request.method === "DELETE") {
    drift.clear();
    return { status: 204, headers: { "cache-control": "no-store" }, body: null };
  }
  if (request.method !== "GET" && request.method !== "HEAD")
    return { status: 405, headers: { allow: "GET, DELETE" }, body: null };
  const report = drift.report();
  const accept = String(request.headers.accept ?? "");
  if (accept.includes("text/html") && !accept.startsWith("application/json"))
    return {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": DRIFT_PAGE_CSP,
        "cache-control": "no-store",
      },
      body: driftPage(report),
    };
  return {
    status: 200,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
    body: JSON.stringify(report),
  };
}

export function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}

function exposeToBrowsers(headers: Record<string, string | string[]>): void {
  const exposed = headers["access-control-expose-headers"];
  if (typeof exposed === "string" && exposed !== "*")
    headers["access-control-expose-headers"] = `${exposed}, X-Entrada-Contract, X-Entrada-Source`;
}

/**
 * Reads a body up to `cap` bytes. When it is longer, what was read so far is `kept` and the unread remainder is
 * `rest` (the transport pipes it on): nothing beyond the cap is held in memory.
 */
async function readBounded(
  body: Uint8Array | Readable | null,
  cap: number,
): Promise<{ kept: Uint8Array | null; rest: Readable | null; truncated: boolean }> {
  if (body === null || body instanceof Uint8Array) return { kept: body, rest: null, truncated: false };
  const stream = body;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= cap) return;
      // Over the cap: stop reading here; the transport writes what was read, then pipes the rest.
      stream.pause();
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", reject);
      resolve({ kept: new Uint8Array(Buffer.concat(chunks)), rest: stream, truncated: true });
    };
    const onEnd = () =>
      resolve({
        kept: size === 0 ? null : new Uint8Array(Buffer.concat(chunks)),
        rest: null,
        truncated: false,
      });
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("error", reject);
  });
}

/** The body as JSON-checkable bytes: decompressed when the upstream compressed it (the client gets it as sent). */
function decoded(body: Uint8Array | null, encoding: string | undefined): Uint8Array | null {
  if (body === null || encoding === undefined || encoding === "identity") return body;
  try {
    if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(body);
    if (encoding === "deflate") return inflateSync(body);
    if (encoding === "br") return brotliDecompressSync(body);
  } catch {
    return body;
  }
  return body;
}
