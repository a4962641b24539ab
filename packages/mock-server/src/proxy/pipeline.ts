/**
 * The contract proxy's request pipeline: the mock's own `Exchange` and dispatcher (`core/pipeline/`), with the
 * answering stage swapped for the upstream and the contract checked on both sides of it. In the order a request
 * goes through it:
 *
 *   1. target               the URL and the path below the proxy's root (nothing refused: the upstream judges)
 *   2. developer controls   `/__mock/drift` (the report) here, every other `/__mock` path to the local mock
 *   3. route                the operation of the document (none: still relayed, reported as `route`)
 *   4. check the request    parameters and body against the contract, with the mock's own validators
 *   5. answer               from the upstream; from the local mock under `--fallback` when the upstream is
 *                           unreachable or answers 501; else a 502 problem naming the upstream
 *   6. check the response   status, media type, schema, headers, problem shape, replay (contract.ts, replay.ts)
 *   7. report and record    the drift store, `X-Entrada-Contract`, the recorder
 *
 * The response goes to the client unchanged (the upstream's bytes), plus `X-Entrada-Contract` and, for a local
 * answer, `X-Entrada-Source: local-fallback`. A body longer than `maxCheckedBytes` is streamed through as it
 * arrives; only its status, headers and media type are checked (`X-Entrada-Contract` says so).
 */
import type { Readable } from "node:stream";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { type ContractChecker, contractHeader, type Violation } from "../core/contract.ts";
import type { MockCore } from "../core/engine.ts";
import { contentTypeOf } from "../core/media-type.ts";
import { runStages } from "../core/pipeline/dispatch.ts";
import { Answered, Exchange } from "../core/pipeline/exchange.ts";
import { queryRecord } from "../core/pipeline/input.ts";
import type { MockRequest, MockResponse } from "../core/types.ts";
import { FORM, type Validator } from "../core/validation.ts";
import type { DriftStore } from "./drift.ts";
import { DRIFT_PAGE_CSP, driftPage } from "./drift-page.ts";
import type { Recorder } from "./recorder.ts";
import type { ReplayTracker } from "./replay.ts";
import { sanitizePath } from "./sanitize.ts";
import { type Upstream, UpstreamUnreachable, withoutHopByHop } from "./upstream.ts";

/** What the proxy's stages draw on; each stage is given only the ones it needs. */
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

/** What the transport writes: status, headers (repeated ones as arrays), the body, and the rest of a long one. */
export interface ProxyReply {
  status: number;
  headers: Record<string, string | string[]>;
  body: Uint8Array | string | null;
  /** The rest of an upstream body too long to check: written after `body` (its first bytes). */
  rest?: Readable;
}

/** The mock's `Exchange` with what the proxy's stages add. */
export class ProxyExchange extends Exchange {
  /** The request as received (headers with arrays, path with query). */
  readonly received: ProxyRequest;
  /** 4: the request's own contract violations (rule `request`). */
  requestViolations: Violation[] = [];
  /** 5: who answered. */
  source: "upstream" | "local" = "upstream";
  /** 5: the answer's headers as they will be written (repeated ones as arrays). */
  replyHeaders: Record<string, string | string[]> = {};
  /** 5: the unread rest of a body longer than the check cap, and whether there is one. */
  rest: Readable | null = null;
  truncated = false;
  /** 6: the answer's violations, the request's included. */
  violations: Violation[] = [];

  constructor(received: ProxyRequest) {
    super(mockRequest(received), "", "en-GB");
    this.received = received;
  }
}

type ProxyStage = (ex: ProxyExchange) => void | Promise<void>;

export function proxyStages(services: ProxyServices): ProxyStage[] {
  return [
    target,
    controls(services.drift, services.core),
    route(services.core),
    checkRequest(services.core.validator),
    answerFromUpstream(services),
    checkResponse(services.checker, services.replay),
    reportAndRecord(services),
  ];
}

/** Runs one request through the proxy's stages. */
export async function proxyRequest(
  stages: readonly ProxyStage[],
  request: ProxyRequest,
): Promise<ProxyReply> {
  const ex = new ProxyExchange(request);
  const response = await runStages(stages, ex);
  if (ex.stopped) return response; // answered by a stage (a control, the 502)
  return {
    status: response.status,
    headers: ex.replyHeaders,
    body: response.body,
    ...(ex.rest ? { rest: ex.rest } : {}),
  };
}

/** 1. The URL and the path (the proxy is mounted at the root). */
function target(ex: ProxyExchange): void {
  ex.url = new URL(ex.received.path, "http://proxy.invalid");
  ex.pathname = ex.url.pathname;
}

/** 2. `/__mock/drift` (JSON for programs, HTML for a browser, DELETE clears); other `/__mock` paths: the mock's. */
function controls(drift: DriftStore, core: MockCore): ProxyStage {
  return async (ex) => {
    const pathname = ex.pathname ?? "/";
    if (pathname === "/__mock/drift") throw new Answered(driftControl(drift, ex.received));
    if (pathname === "/__mock" || pathname.startsWith("/__mock/"))
      throw new Answered(await core.handle(ex.request));
  };
}

/** 3. The operation (an unknown one is still relayed; the response check reports it as `route`). */
function route(core: MockCore): ProxyStage {
  return (ex) => {
    const match = core.router.match(ex.method, ex.pathname ?? "/");
    if (match.kind !== "found") return;
    ex.route = match.route;
    ex.template = match.template;
    ex.params = match.params;
  };
}

/** 4. Parameters and body of the request, pointers into the request (`/query/limit`, `/body/items/0`). */
function checkRequest(validator: Validator): ProxyStage {
  return (ex) => {
    if (!ex.route) return;
    const op = ex.op;
    const out = ex.requestViolations;
    const add = (errors: Array<{ pointer: string; detail: string }>) => {
      for (const e of errors) out.push({ rule: "request", pointer: e.pointer, message: e.detail });
    };
    add(validator.params(op, "path", ex.params, "en-GB"));
    add(validator.params(op, "query", queryRecord(ex.url.searchParams), "en-GB"));
    add(validator.params(op, "header", ex.headers, "en-GB"));
    const body = ex.request.body;
    if (op.body && body && body.byteLength > 0) {
      const type = contentTypeOf(ex.headers["content-type"]).media;
      if (!op.body.media.has(type)) {
        out.push({
          rule: "request",
          pointer: "/header/content-type",
          message: `Content-Type ${type || "(none)"} is not declared for ${op.operationId}'s body.`,
        });
        return;
      }
      const text = new TextDecoder().decode(body);
      try {
        const value = type === FORM ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text);
        add(validator.body(op, type, value, "en-GB"));
      } catch {
        out.push({ rule: "request", pointer: "/body", message: "The request body is not JSON." });
      }
    } else if (op.body?.required) {
      out.push({ rule: "request", pointer: "/body", message: `${op.operationId} requires a body.` });
    }
  };
}

const encoder = new TextEncoder();

/**
 * 5. The answering stage: the upstream's answer (its body read up to the cap), or the local mock's under
 * `--fallback` (unreachable, 501), or the 502 problem naming the upstream (answered here: nothing to check).
 */
function answerFromUpstream(services: ProxyServices): ProxyStage {
  const { upstream, core, fallback, maxCheckedBytes, drift, log } = services;
  const local = async (ex: ProxyExchange) => {
    const response = await core.handle(ex.request);
    ex.source = "local";
    ex.replyHeaders = { ...response.headers };
    ex.response = {
      ...response,
      body: typeof response.body === "string" ? encoder.encode(response.body) : response.body,
    };
  };
  return async (ex) => {
    const { method, path, headers, body } = ex.received;
    let answer: Awaited<ReturnType<Upstream["send"]>>;
    try {
      answer = await upstream.send(method, path, headers, body);
    } catch (error) {
      if (!(error instanceof UpstreamUnreachable)) throw error;
      if (fallback) return local(ex);
      drift.unreachable++;
      log(`${method} ${sanitizePath(path)} → 502  upstream unreachable`);
      throw new Answered(unreachable(error));
    }
    if (answer.status === 501 && fallback) {
      answer.body.resume();
      return local(ex);
    }
    const read = await readBounded(answer.body, maxCheckedBytes);
    ex.replyHeaders = keepRepeated(answer.headers);
    ex.rest = read.rest;
    ex.truncated = read.truncated;
    ex.response = { status: answer.status, headers: flatHeaders(answer.headers), body: read.kept };
  };
}

function unreachable(error: UpstreamUnreachable): MockResponse {
  return {
    status: 502,
    headers: {
      "content-type": "application/problem+json",
      "cache-control": "no-store",
      "x-entrada-contract": "upstream unreachable",
    },
    body: JSON.stringify({
      type: "https://docs.entrada.dev/problems/upstream-unreachable",
      title: "Upstream unreachable",
      status: 502,
      detail: `The contract proxy could not reach the upstream ${error.upstream} (${error.reason}). Start it, or run the proxy with --fallback to answer from the local mock.`,
      upstream: error.upstream,
    }),
  };
}

/** 6. The answer against the contract (and the replay rules), after the request's own violations. */
function checkResponse(checker: ContractChecker, replay: ReplayTracker): ProxyStage {
  return (ex) => {
    const response = ex.response as MockResponse;
    const pathname = ex.pathname ?? "/";
    const body = response.body as Uint8Array | null;
    const checked = checker.check({
      method: ex.method,
      path: pathname,
      status: response.status,
      headers: response.headers,
      // Over the cap only the status, the headers and the media type are checked (the bytes kept are a prefix).
      body: ex.truncated ? body : decoded(body, response.headers["content-encoding"]),
      truncated: ex.truncated,
    });
    ex.violations = [
      ...ex.requestViolations,
      ...checked.violations,
      ...replay.observe(
        { method: ex.method, path: pathname, headers: ex.headers, body: ex.request.body },
        response.status,
        response.headers,
      ),
    ];
  };
}

/** 7. The drift store, the recorder, the log line and the headers the proxy adds. */
function reportAndRecord({ drift, recorder, log, maxCheckedBytes }: ProxyServices): ProxyStage {
  return (ex) => {
    const response = ex.response as MockResponse;
    const body = response.body as Uint8Array | null;
    const checkedBody = ex.truncated ? null : decoded(body, response.headers["content-encoding"]);
    const observed = {
      operationId: ex.route?.op.operationId ?? "(no operation)",
      method: ex.method,
      template: ex.route ? ex.template : (ex.pathname ?? "/"),
      path: ex.received.path,
      status: response.status,
      headers: response.headers,
      body: checkedBody,
    };
    drift.record(observed, ex.violations);
    if (ex.source === "local") drift.fallbacks++;
    if (recorder && ex.route)
      recorder.record({
        ...observed,
        source: ex.source,
        requestHeaders: ex.received.headers,
        requestBody: ex.request.body,
        responseHeaders: ex.replyHeaders,
        responseBody: checkedBody,
        truncated: ex.truncated,
      });
    const verdict = ex.truncated
      ? `${contractHeader(ex.violations)}; body not checked (over ${maxCheckedBytes} bytes)`
      : contractHeader(ex.violations);
    log(
      `${ex.method} ${sanitizePath(ex.received.path)} → ${response.status}${ex.source === "local" ? " (local fallback)" : ""}  ${verdict}`,
    );
    ex.replyHeaders["x-entrada-contract"] = verdict;
    if (ex.source === "local") ex.replyHeaders["x-entrada-source"] = "local-fallback";
    exposeToBrowsers(ex.replyHeaders);
  };
}

function mockRequest(request: ProxyRequest): MockRequest {
  return {
    method: request.method,
    url: `http://proxy.invalid${request.path}`,
    headers: flatHeaders(request.headers),
    body: request.body,
  };
}

/** `GET /__mock/drift`: JSON for programs, HTML for a browser; `DELETE` clears it. */
function driftControl(drift: DriftStore, request: ProxyRequest): MockResponse {
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

/** The upstream's headers as written: hop-by-hop ones dropped, Set-Cookie kept repeated, the length as sent. */
function keepRepeated(headers: Record<string, string | string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = withoutHopByHop(headers);
  if (Array.isArray(headers["set-cookie"])) out["set-cookie"] = headers["set-cookie"];
  if (headers["content-length"] !== undefined) out["content-length"] = headers["content-length"];
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
function readBounded(
  stream: Readable,
  cap: number,
): Promise<{ kept: Uint8Array | null; rest: Readable | null; truncated: boolean }> {
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
