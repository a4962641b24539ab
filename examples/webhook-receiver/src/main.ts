/**
 * Receives Entrada webhooks on plain `node:http` into a durable inbox (a SQLite file): verified, stored, then
 * acknowledged; handled by a worker that retries what fails.
 *
 *   pnpm start                                   # against the local mock: subscribes itself, then listens
 *   ENTRADA_WEBHOOK_SECRET=whsec_… PORT=3000 pnpm start   # a subscription you created before (pnpm subscribe)
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type components, createClient } from "@entrada/sdk";
import { sqliteInboxStore } from "@entrada/sdk/sqlite";
import { createWebhookInbox, type InboxRetry, type WebhookInbox } from "@entrada/sdk/webhooks";
import { type HandledEvent, handleEvent } from "./events.ts";
import { type ApiCredentials, apiFromEnv, secretsFromEnv } from "./options.ts";
import { createSubscription, type Subscription } from "./subscribe.ts";

export type { HandledEvent } from "./events.ts";

/** A delivery the endpoint refused, and why. */
export interface Rejection {
  status: number;
  code: string;
}

export interface ReceiverExampleOptions {
  /** Port to listen on (0 picks a free one). */
  port: number;
  host: string;
  /** Endpoint path (default `/webhooks/entrada`). */
  path?: string;
  /** The inbox's SQLite file (default `webhooks.sqlite`). */
  databasePath?: string;
  /** Signing secrets of an existing subscription; leave empty to subscribe (below). */
  secrets: string[];
  /**
   * With no secrets: create a subscription at this API that points at this receiver (or at `publicUrl`, the
   * address the platform can reach, e.g. behind a tunnel) and verify with the secret it returns.
   */
  subscribe?: ApiCredentials & {
    publicUrl?: string;
    eventTypes?: components["schemas"]["EventTypeSelection"];
    /** Language of textual payload fields (default `en-GB`). */
    culture?: string;
  };
  /** When a handler fails: the inbox's retries (default: 8 attempts, from 1 s doubling up to 15 min). */
  retry?: InboxRetry;
  log?: (line: string) => void;
}

export interface RunningReceiver {
  /** The endpoint's address, e.g. `http://127.0.0.1:3000/webhooks/entrada`. */
  url: string;
  /** The subscription created at start, if any. */
  subscription: Subscription | undefined;
  /** Verified events in the order they were processed. */
  handled: HandledEvent[];
  /** Deliveries refused (forged, stale, malformed, too large). */
  rejected: Rejection[];
  /** `webhook-id`s that arrived again after being stored. */
  duplicates: string[];
  /** Attempts whose handling threw (the inbox tries them again with backoff). */
  failed: { id: string; type: string; attempt: number; error: unknown }[];
  /** `stats()`, `replay(id)` of a dead letter, `get(id)`. */
  inbox: WebhookInbox;
  /** Stops listening, lets the events in flight finish, closes the database. */
  close(): Promise<void>;
}

export async function main(options: ReceiverExampleOptions): Promise<RunningReceiver> {
  const log = options.log ?? console.log;
  const path = options.path ?? "/webhooks/entrada";
  let secrets: readonly string[] = options.secrets;
  if (secrets.length === 0 && !options.subscribe) {
    throw new Error(
      "Set ENTRADA_WEBHOOK_SECRET (see `pnpm subscribe`), or let the example subscribe itself.",
    );
  }
  const handled: HandledEvent[] = [];
  const rejected: Rejection[] = [];
  const duplicates: string[] = [];
  const failed: RunningReceiver["failed"] = [];
  const store = sqliteInboxStore(options.databasePath ?? "webhooks.sqlite");

  // Verifies on the raw bytes, stores the delivery (unique on webhook-id), answers 202 once it is committed; the
  // worker below handles it. A crash after the answer loses nothing: the row is there when the process is back.
  const inbox = createWebhookInbox({
    secrets: () => secrets,
    store,
    log,
    ...(options.retry ? { retry: options.retry } : {}),
    onAnswer: ({ status, id, code, duplicate }) => {
      if (status >= 400) {
        rejected.push({ status, code: code ?? "" });
        log(`rejected (${status} ${code})`);
      }
      if (duplicate && id) {
        duplicates.push(id);
        log(`${id} again: stored already, acknowledged`);
      }
    },
    handle: ({ event, id, type, attempt }) => {
      try {
        const result = handleEvent(event, id);
        handled.push(result);
        log(`${id} ${event.type}: ${result.summary}`);
      } catch (error) {
        failed.push({ id, type, attempt, error });
        throw error; // the inbox tries it again later
      }
    },
  });
  const server = createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://receiver.invalid").pathname !== path) return res.writeHead(404).end();
    inbox.node(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const stop = new AbortController();
  const worker = inbox.start({ concurrency: 1, signal: stop.signal });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}${path}`;
  const close = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    stop.abort();
    await worker;
    await store.close();
  };
  log(`Listening on ${url}`);

  let subscription: Subscription | undefined;
  if (secrets.length === 0 && options.subscribe) {
    const { publicUrl, eventTypes = ["*"], culture = "en-GB", ...api } = options.subscribe;
    try {
      const client = createClient({ ...api, scope: "Shop", userAgent: "entrada-example-webhook-receiver" });
      subscription = await createSubscription(client, { url: publicUrl ?? url, eventTypes, culture });
    } catch (error) {
      await close();
      throw error;
    }
    secrets = [subscription.secret];
    log(
      `Subscribed ${subscription.id} at ${api.baseUrl} (keep the secret: ENTRADA_WEBHOOK_SECRET=${subscription.secret})`,
    );
  }

  return { url, subscription, handled, rejected, duplicates, failed, inbox, close };
}

if (import.meta.main) {
  const secrets = secretsFromEnv();
  const running = await main({
    port: Number(process.env.PORT ?? 3000),
    host: process.env.HOST ?? "127.0.0.1",
    secrets,
    databasePath: process.env.WEBHOOK_DATABASE_PATH ?? "webhooks.sqlite",
    ...(secrets.length === 0
      ? {
          subscribe: {
            ...apiFromEnv(),
            ...(process.env.ENTRADA_WEBHOOK_URL ? { publicUrl: process.env.ENTRADA_WEBHOOK_URL } : {}),
          },
        }
      : {}),
  }).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void running.close().then(() => process.exit(0)));
  }
}
