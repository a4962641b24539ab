/**
 * A durable webhook inbox: verify, store, answer 2xx, process in a worker. A delivery is acknowledged only after the
 * store committed it, so a crash after the answer loses nothing; the worker runs `handle` at least once per
 * delivery (retried with backoff, dead-lettered after `maxAttempts`), and a redelivery of a stored `webhook-id` is
 * acknowledged without storing anything. Design notes: docs/webhooks.md ("A durable inbox").
 */
import type { WebhookEvent } from "./events.ts";
import type { InboxCounts, InboxRecord, InboxStore } from "./inbox-store.ts";
import {
  type InboxMessage,
  type InboxRetry,
  type InboxRunOptions,
  type InboxTracing,
  runWorker,
} from "./inbox-worker.ts";

export type { InboxMessage, InboxRetry, InboxRunOptions, InboxTracing };

import { WebhookVerificationError } from "./errors.ts";
import { header } from "./headers.ts";
import { verifyWebhook, type WebhookHeaders } from "./verify.ts";

export interface WebhookInboxOptions {
  /** The endpoint's signing secret(s) (`whsec_…`), or a function returning the current ones (rotation). */
  secrets: string | readonly string[] | (() => string | readonly string[]);
  store: InboxStore;
  /** Processes one delivery; throwing (or exceeding `timeoutMs`) schedules a retry. */
  handle: (message: InboxMessage) => Promise<unknown> | unknown;
  retry?: InboxRetry;
  /** Longest run of one attempt (default 30 s): past it the attempt counts as failed and its signal aborts. */
  timeoutMs?: number;
  /** Lease of a claimed delivery (default `timeoutMs` + 30 s): past it, another replica takes the delivery over. */
  leaseMs?: number;
  /** Done rows are kept this long (default 7 days, longer than the sender's ~3-day retry schedule). */
  retentionMs?: number;
  /** Dead letters are kept this long (default 30 days). */
  deadRetentionMs?: number;
  /** Larger bodies are answered 413 (default 1 MiB). */
  maxBodyBytes?: number;
  /** Accepted clock difference of `webhook-timestamp`, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Sees every answer of the endpoint (metrics, audit): its status, the delivery's id once verified, the code. */
  onAnswer?: (answer: InboxAnswer) => void;
  /** Where refusals and failures are told (default `console.error`). */
  log?: (line: string) => void;
  tracing?: InboxTracing;
  /** Clock for leases, backoff and retention (default `Date.now`); replicas need synchronised clocks (NTP). */
  now?: () => number;
  random?: () => number;
}

export interface InboxAnswer {
  status: number;
  /** The `webhook-id`, for verified deliveries. */
  id?: string;
  /** Why a delivery was refused (`no_matching_signature`, `payload_too_large`, `store_unavailable`, …). */
  code?: string;
  /** A verified redelivery of a stored id. */
  duplicate?: boolean;
}

/** The parts of Node's `IncomingMessage` and `ServerResponse` the adapter uses. */
export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  method?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body?: string): unknown;
}

export interface InboxStats extends InboxCounts {
  /** Age of the oldest pending delivery in ms (0 when none is pending). */
  oldestPendingAgeMs: number;
}

export interface WebhookInbox {
  /** The web-standard endpoint (Node 18+, Deno, Bun, Workers, route handlers). */
  handler(request: Request): Promise<Response>;
  /** The same endpoint for `node:http` (and Express, Fastify's raw mode): `createServer(inbox.node)`. */
  node(req: NodeRequestLike, res: NodeResponseLike): void;
  /**
   * Processes stored deliveries until `signal` aborts, then stops claiming and lets the attempts in flight finish
   * within `drainMs` (default 25 s); resolves once stopped.
   */
  start(options?: InboxRunOptions): Promise<void>;
  stats(): Promise<InboxStats>;
  /** Processes a dead (or done) delivery again; `false` if there is no such delivery. */
  replay(id: string): Promise<boolean>;
  get(id: string): Promise<InboxRecord | undefined>;
}

interface Answer {
  status: number;
  body?: Record<string, unknown>;
  retryAfter?: number;
}

const PROBLEMS = "https://docs.entrada.dev/problems/webhook-";

const problem = (status: number, code: string, detail: string, retryAfter?: number): Answer => ({
  status,
  body: { type: `${PROBLEMS}${code.replaceAll("_", "-")}`, title: code, status, detail },
  ...(retryAfter ? { retryAfter } : {}),
});

function headersOf(answer: Answer): Record<string, string> {
  const headers: Record<string, string> = {};
  if (answer.body)
    headers["content-type"] = answer.status < 300 ? "application/json" : "application/problem+json";
  if (answer.retryAfter) headers["retry-after"] = String(answer.retryAfter);
  if (answer.status === 405) headers.allow = "POST";
  return headers;
}

const toResponse = (answer: Answer): Response =>
  new Response(answer.body ? JSON.stringify(answer.body) : null, {
    status: answer.status,
    headers: headersOf(answer),
  });

const tooLarge = (max: number) => problem(413, "payload_too_large", `The body is larger than ${max} bytes.`);

/** Reads a stream into one buffer, giving up (undefined) past `max` bytes. */
async function readLimited(
  chunks: AsyncIterable<Uint8Array | string>,
  max: number,
): Promise<Uint8Array | undefined> {
  const parts: Uint8Array[] = [];
  let size = 0;
  const encoder = new TextEncoder();
  for await (const chunk of chunks) {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    size += bytes.length;
    if (size > max) return undefined;
    parts.push(bytes);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** Signed, but not by a current secret or not now: unauthenticated (401). Other refusals are not webhooks (400). */
const SIGNATURE_CODES = new Set(["timestamp_too_old", "timestamp_too_new", "no_matching_signature"]);

/**
 * Creates the inbox: an endpoint that stores verified deliveries before it acknowledges them, and a worker that
 * processes them.
 * @example
 * const inbox = createWebhookInbox({
 *   secrets: process.env.ENTRADA_WEBHOOK_SECRET!,
 *   store: sqliteInboxStore("inbox.sqlite"),
 *   handle: async ({ event, id }) => forwardToCrm(event, { idempotencyKey: id }),
 * });
 * createServer(inbox.node).listen(3000);
 * inbox.start({ concurrency: 4, signal: AbortSignal.any([]) });
 */
export function createWebhookInbox(options: WebhookInboxOptions): WebhookInbox {
  const { store } = options;
  const max = options.maxBodyBytes ?? 1_048_576;
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.error(line));
  const wakers = new Set<() => void>();
  const decoder = new TextDecoder();

  const secrets = (): string | readonly string[] =>
    typeof options.secrets === "function" ? options.secrets() : options.secrets;

  async function accept(body: Uint8Array, headers: WebhookHeaders): Promise<Answer> {
    let event: WebhookEvent;
    try {
      event = await verifyWebhook(body, headers, secrets(), {
        maxBodyBytes: max,
        now: now(),
        ...(options.toleranceSeconds !== undefined ? { toleranceSeconds: options.toleranceSeconds } : {}),
      });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      if (error.code === "payload_too_large") return tooLarge(max);
      if (error.code === "invalid_secret") {
        log("webhook inbox: no signing secret configured: set the endpoint's secret (whsec_…)");
        return problem(500, error.code, "The receiver has no signing secret configured.");
      }
      log(`webhook inbox: refused a delivery (${error.code}): ${error.message}; nothing stored`);
      return problem(SIGNATURE_CODES.has(error.code) ? 401 : 400, error.code, error.message);
    }
    // Verification required the header, so it is there.
    const id = header(headers, "webhook-id") as string;
    const run = async (): Promise<Answer> => {
      let added: boolean;
      try {
        added = await store.add({ id, type: event.type, body: decoder.decode(body), receivedAt: now() });
      } catch (error) {
        log(
          `webhook inbox: could not store delivery ${id} in ${store.name} (${String(error)}); answered 503 so the ` +
            "sender retries it: check that the database is reachable and has space",
        );
        return problem(503, "store_unavailable", "The delivery could not be stored; retry later.", 30);
      }
      if (!added) return { status: 200, body: { id, duplicate: true } };
      for (const wake of wakers) wake();
      return { status: 202, body: { id, stored: true } };
    };
    return options.tracing
      ? options.tracing.span("receive", { "messaging.message.id": id, "entrada.event.type": event.type }, run)
      : run();
  }

  /** Tells `onAnswer` (which must never break an answer) and passes the answer on. */
  const observed = (answer: Answer): Answer => {
    if (options.onAnswer) {
      const { body } = answer;
      const seen: InboxAnswer = { status: answer.status };
      if (typeof body?.id === "string") seen.id = body.id;
      if (typeof body?.title === "string") seen.code = body.title;
      if (body?.duplicate === true) seen.duplicate = true;
      try {
        options.onAnswer(seen);
      } catch (error) {
        log(`webhook inbox: onAnswer threw: ${String(error)}`);
      }
    }
    return answer;
  };

  async function answerFor(request: Request): Promise<Answer> {
    if (request.method !== "POST") return problem(405, "method_not_allowed", "Use POST.");
    const declared = Number(request.headers.get("content-length") ?? 0);
    if (declared > max) return tooLarge(max);
    const body = request.body ? await readLimited(streamChunks(request.body), max) : new Uint8Array();
    return body ? accept(body, request.headers) : tooLarge(max);
  }

  return {
    handler: async (request) => toResponse(observed(await answerFor(request))),
    node(req, res) {
      const send = (answer: Answer) => {
        observed(answer);
        res.writeHead(answer.status, headersOf(answer));
        res.end(answer.body ? JSON.stringify(answer.body) : undefined);
      };
      (async () => {
        if (req.method !== "POST") return send(problem(405, "method_not_allowed", "Use POST."));
        const body = await readLimited(req, max);
        send(body ? await accept(body, req.headers) : tooLarge(max));
      })().catch((error: unknown) => {
        log(`webhook inbox: ${String(error)}`);
        send(problem(500, "internal", "The receiver failed; the sender will retry."));
      });
    },
    start: (run = {}) =>
      runWorker({ ...options, log, now, random: options.random ?? Math.random, wakers }, run),
    async stats() {
      const at = now();
      const counts = await store.counts(at);
      return {
        ...counts,
        oldestPendingAgeMs: counts.oldestPendingAt === null ? 0 : Math.max(0, at - counts.oldestPendingAt),
      };
    },
    async replay(id) {
      const replayed = await store.replay(id, now());
      if (replayed) for (const wake of wakers) wake();
      return replayed;
    },
    get: (id) => store.get(id),
  };
}
