/**
 * The webhook endpoint on plain `node:http`: raw body (bounded), Standard Webhooks verification and dedupe by
 * `webhook-id` from `@entrada/sdk/webhooks`, a 2xx at once, the work behind the response (one event at a time).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  createWebhookDeduper,
  verifyWebhook,
  type WebhookDeduper,
  type WebhookEvent,
  WebhookVerificationError,
} from "@entrada/sdk/webhooks";

export interface EndpointOptions {
  secrets: () => readonly string[];
  path: string;
  onEvent: (event: WebhookEvent, id: string) => Promise<unknown>;
  log: (line: string) => void;
  dedupe?: WebhookDeduper;
  maxBodyBytes?: number;
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function createEndpoint(options: EndpointOptions) {
  const dedupe = options.dedupe ?? createWebhookDeduper();
  const limit = options.maxBodyBytes ?? 1_048_576;
  let queue: Promise<void> = Promise.resolve();
  const json = (res: ServerResponse, status: number, body?: object) =>
    body
      ? res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
      : res.writeHead(status).end();

  async function receive(req: IncomingMessage, res: ServerResponse) {
    if (new URL(req.url ?? "/", "http://x.invalid").pathname !== options.path) return json(res, 404);
    if (req.method !== "POST") return json(res.setHeader("allow", "POST"), 405);
    const body = await readBody(req, limit);
    if (!body) return json(res, 413, { code: "payload_too_large" });
    let event: WebhookEvent;
    try {
      event = await verifyWebhook(body, req.headers, options.secrets(), { maxBodyBytes: limit });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      options.log(`rejected delivery: ${error.code}`);
      return json(res, error.code === "invalid_secret" ? 500 : 401, { code: error.code });
    }
    const id = String(req.headers["webhook-id"]);
    if (!(await dedupe.claim(id))) {
      options.log(`${id} again: already handled`);
      return json(res, 200, { duplicate: true });
    }
    json(res, 204);
    queue = queue.then(() =>
      options.onEvent(event, id).then(
        () => undefined,
        async (error: unknown) => {
          await dedupe.release(id);
          options.log(`${id} ${event.type} failed (replay the delivery to retry): ${String(error)}`);
        },
      ),
    );
  }

  return {
    handle(req: IncomingMessage, res: ServerResponse) {
      receive(req, res).catch((error: unknown) => {
        options.log(`receiver error: ${String(error)}`);
        if (!res.headersSent) json(res, 500);
      });
    },
    idle: () => queue,
  };
}
