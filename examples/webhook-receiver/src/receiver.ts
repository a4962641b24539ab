/**
 * A Standard Webhooks endpoint on plain `node:http`: read the raw body (bounded), verify the signature, drop
 * redeliveries by `webhook-id`, acknowledge at once, process behind the response.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import {
  createWebhookDeduper,
  verifyWebhook,
  type WebhookDeduper,
  type WebhookEvent,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from "@entrada/sdk/webhooks";

export interface ReceiverOptions {
  /** The subscription's `whsec_…` secret(s); during a rotation both the new and the old one. Read per request. */
  secrets: () => readonly string[];
  /** Path of the endpoint (default `/webhooks/entrada`). */
  path?: string;
  /** Called for each verified, first-seen event, after the 2xx went out. A throw releases the id for a replay. */
  onEvent: (event: WebhookEvent, id: string) => void | Promise<void>;
  /** Called for each refused delivery (forged, stale, malformed...). */
  onRejected?: (rejection: Rejection) => void;
  /** Called when `onEvent` threw (default: `console.error`); the id is released first. */
  onError?: (error: unknown, event: WebhookEvent, id: string) => void;
  /** Called for each redelivery of an already handled `webhook-id`. */
  onDuplicate?: (id: string) => void;
  /** Shared across instances in production (Redis, a database); default in memory. */
  dedupe?: WebhookDeduper;
  /** Largest accepted body (default 1 MiB, as the SDK's verifier). */
  maxBodyBytes?: number;
}

export interface Rejection {
  status: number;
  code: WebhookVerificationErrorCode | "payload_too_large" | "body_read_failed";
}

export interface WebhookReceiver {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Resolves when every acknowledged event has been processed. */
  idle(): Promise<void>;
}

/** Which answer each verification failure gets; only 2xx stops the sender's retries. */
const STATUS: Record<WebhookVerificationErrorCode, number> = {
  // Not signed by us with a current secret, or outside the ±5 min window: unauthenticated.
  no_matching_signature: 401,
  timestamp_too_old: 401,
  timestamp_too_new: 401,
  // Not a webhook request at all.
  missing_header: 400,
  invalid_timestamp: 400,
  malformed_signature: 400,
  invalid_json: 400,
  payload_too_large: 413,
  // Our own configuration or code is wrong: a 5xx makes the sender retry once it is fixed.
  invalid_secret: 500,
  invalid_body: 500,
};

function answer(res: ServerResponse, status: number, body?: Record<string, unknown>): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** Reads the body as bytes, refusing more than `limit` without buffering it. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | "too_large"> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve("too_large");
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        resolve("too_large");
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

const logError = (error: unknown, event: WebhookEvent, id: string) =>
  console.error(`webhook ${id} (${event.type}) failed; replay the delivery to retry:`, error);

export function createWebhookReceiver(options: ReceiverOptions): WebhookReceiver {
  const path = options.path ?? "/webhooks/entrada";
  const limit = options.maxBodyBytes ?? 1_048_576;
  const dedupe = options.dedupe ?? createWebhookDeduper();
  // Acknowledged events are processed one after another behind the responses. In production put them on a
  // durable queue before answering, so a crash after the 2xx loses nothing.
  let queue: Promise<void> = Promise.resolve();

  const reject = (res: ServerResponse, rejection: Rejection) => {
    options.onRejected?.(rejection);
    answer(res, rejection.status, { code: rejection.code });
  };

  async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://receiver.invalid");
    if (url.pathname !== path) return answer(res, 404);
    if (req.method !== "POST") {
      res.setHeader("allow", "POST");
      return answer(res, 405);
    }
    let body: Buffer | "too_large";
    try {
      body = await readBody(req, limit);
    } catch {
      return reject(res, { status: 400, code: "body_read_failed" });
    }
    if (body === "too_large") return reject(res, { status: 413, code: "payload_too_large" });

    let event: WebhookEvent;
    try {
      // The raw bytes, exactly as signed: never JSON.parse + JSON.stringify before verifying.
      event = await verifyWebhook(body, req.headers, options.secrets(), { maxBodyBytes: limit });
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        return reject(res, { status: STATUS[error.code], code: error.code });
      }
      throw error;
    }
    // Verified first, so forged requests can never mark an id as seen.
    const id = String(req.headers["webhook-id"]);
    if (!(await dedupe.claim(id))) {
      options.onDuplicate?.(id);
      return answer(res, 200, { duplicate: true });
    }
    answer(res, 204);
    queue = queue.then(async () => {
      try {
        await options.onEvent(event, id);
      } catch (error) {
        // Acknowledged already: the sender will not retry, but a replay of this delivery will get through.
        await dedupe.release(id);
        (options.onError ?? logError)(error, event, id);
      }
    });
  }

  return {
    handle(req, res) {
      receive(req, res).catch((error: unknown) => {
        console.error("webhook receiver:", error);
        if (!res.headersSent) answer(res, 500);
        else res.end();
      });
    },
    idle: () => queue,
  };
}
