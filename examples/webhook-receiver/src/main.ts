/**
 * Receives Entrada webhooks on plain `node:http`.
 *
 *   pnpm start                                   # against the local mock: subscribes itself, then listens
 *   ENTRADA_WEBHOOK_SECRET=whsec_… PORT=3000 pnpm start   # a subscription you created before (pnpm subscribe)
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type components, createClient } from "@entrada/sdk";
import { type HandledEvent, handleEvent } from "./events.ts";
import { type ApiCredentials, apiFromEnv, secretsFromEnv } from "./options.ts";
import { createWebhookReceiver, type Rejection } from "./receiver.ts";
import { createSubscription, type Subscription } from "./subscribe.ts";

export type { HandledEvent } from "./events.ts";
export type { Rejection } from "./receiver.ts";

export interface ReceiverExampleOptions {
  /** Port to listen on (0 picks a free one). */
  port: number;
  host: string;
  /** Endpoint path (default `/webhooks/entrada`). */
  path?: string;
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
  log?: (line: string) => void;
}

export interface RunningReceiver {
  /** The endpoint's address, e.g. `http://127.0.0.1:3000/webhooks/entrada`. */
  url: string;
  /** The subscription created at start, if any. */
  subscription: Subscription | undefined;
  /** Verified events in the order they were processed. */
  handled: HandledEvent[];
  /** Deliveries refused (forged, stale, malformed). */
  rejected: Rejection[];
  /** `webhook-id`s that arrived again after being handled. */
  duplicates: string[];
  /** Events whose handling threw (their ids were released, so a replay is processed again). */
  failed: { id: string; type: string; error: unknown }[];
  /** Resolves when every acknowledged event has been processed. */
  idle(): Promise<void>;
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

  const receiver = createWebhookReceiver({
    path,
    secrets: () => secrets,
    onEvent: (event, id) => {
      const result = handleEvent(event, id);
      handled.push(result);
      log(`${id} ${event.type}: ${result.summary}`);
    },
    onRejected: (rejection) => {
      rejected.push(rejection);
      log(`rejected (${rejection.status} ${rejection.code})`);
    },
    onError: (error, event, id) => {
      failed.push({ id, type: event.type, error });
      log(`${id} ${event.type} failed (replay the delivery to retry): ${String(error)}`);
    },
    onDuplicate: (id) => {
      duplicates.push(id);
      log(`${id} again: already handled, acknowledged`);
    },
  });
  const server = createServer(receiver.handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}${path}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
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

  return {
    url,
    subscription,
    handled,
    rejected,
    duplicates,
    failed,
    idle: receiver.idle,
    async close() {
      await close();
      await receiver.idle();
    },
  };
}

if (import.meta.main) {
  const secrets = secretsFromEnv();
  const running = await main({
    port: Number(process.env.PORT ?? 3000),
    host: process.env.HOST ?? "127.0.0.1",
    secrets,
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
