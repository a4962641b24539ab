/**
 * Marketing activation: receives Entrada webhooks, forwards purchases to GA4 and Meta and entrances to GA4, and
 * appends every conversion and entrance to a local analytics store.
 *
 *   ACTIVATION_GA4_URL="https://www.google-analytics.com/mp/collect?measurement_id=G-…&api_secret=…" \
 *   ACTIVATION_META_URL="https://graph.facebook.com/v21.0/<pixel id>/events?access_token=…" \
 *   pnpm start          # against the local mock (pnpm mock): subscribes itself, then listens on :3001
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@entrada/sdk";
import { type ActivationOptions, activate } from "./activation.ts";
import type { Destination } from "./forward.ts";
import { createEndpoint } from "./receiver.ts";
import { fileStore, type StoredRecord } from "./store.ts";

export interface ActivationExampleOptions extends Omit<ActivationOptions, "store" | "log"> {
  port: number;
  host: string;
  path?: string;
  /** The local analytics store (NDJSON file). */
  storePath: string;
  /** Secrets of an existing subscription; empty: subscribe at `api` (cart.completed, entrance.admitted). */
  secrets: string[];
  api?: { baseUrl: string; clientId: string; clientSecret: string; publicUrl?: string };
  log?: (line: string) => void;
}

export interface RunningActivation {
  url: string;
  subscriptionId: string | undefined;
  /** The last 1,000 stored records, newest last (the store file has them all). */
  records: StoredRecord[];
  idle(): Promise<void>;
  close(): Promise<void>;
}

const KEEP = 1000;

export async function main(options: ActivationExampleOptions): Promise<RunningActivation> {
  const log = options.log ?? console.log;
  const path = options.path ?? "/webhooks/entrada";
  const store = fileStore(options.storePath);
  const records: StoredRecord[] = [];
  let secrets: readonly string[] = options.secrets;
  if (!secrets.length && !options.api)
    throw new Error("Set ENTRADA_WEBHOOK_SECRET, or let the example subscribe");
  const endpoint = createEndpoint({
    path,
    secrets: () => secrets,
    log,
    onEvent: async (event, id) => {
      const record = await activate(event, id, { ...options, store, log });
      if (!record) return;
      records.push(record);
      if (records.length > KEEP) records.shift();
    },
  });
  const server = createServer(endpoint.handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const url = `http://${options.host}:${(server.address() as AddressInfo).port}${path}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  log(`Listening on ${url}; store ${options.storePath}`);
  let subscriptionId: string | undefined;
  if (!secrets.length && options.api) {
    const { publicUrl, ...api } = options.api;
    try {
      const client = createClient({ ...api, scope: "Shop", userAgent: "entrada-example-activation" });
      const { data } = await client.webhooks.createWebhookSubscription.orThrow({
        body: {
          url: publicUrl ?? url,
          description: "Marketing activation (examples/activation)",
          eventTypes: ["cart.completed", "entrance.admitted"],
          culture: "en-GB",
        },
      });
      secrets = [data.secret];
      subscriptionId = data.id;
      log(`Subscribed ${data.id} (ENTRADA_WEBHOOK_SECRET=${data.secret})`);
    } catch (error) {
      await close();
      throw error;
    }
  }
  return {
    url,
    subscriptionId,
    records,
    idle: endpoint.idle,
    async close() {
      await close();
      await endpoint.idle();
    },
  };
}

const destination = (name: string, url: string | undefined): Destination | undefined =>
  url ? { name, url } : undefined;

if (import.meta.main) {
  const env = process.env;
  const secrets = (env.ENTRADA_WEBHOOK_SECRET ?? "").split(/[\s,]+/).filter(Boolean);
  const ga4 = destination("ga4", env.ACTIVATION_GA4_URL);
  const meta = destination("meta", env.ACTIVATION_META_URL);
  if (!ga4 && !meta)
    console.warn("No ACTIVATION_GA4_URL or ACTIVATION_META_URL: conversions are only stored.");
  const running = await main({
    port: Number(env.PORT ?? 3001),
    host: env.HOST ?? "127.0.0.1",
    storePath: env.ACTIVATION_STORE ?? "activation.ndjson",
    secrets,
    ...(ga4 ? { ga4 } : {}),
    ...(meta ? { meta } : {}),
    api: {
      baseUrl: env.ENTRADA_BASE_URL ?? "http://127.0.0.1:4010",
      clientId: env.ENTRADA_CLIENT_ID ?? "entrada-demo",
      clientSecret: env.ENTRADA_CLIENT_SECRET ?? "demo-secret",
      ...(env.ENTRADA_WEBHOOK_URL ? { publicUrl: env.ENTRADA_WEBHOOK_URL } : {}),
    },
  }).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void running.close().then(() => process.exit(0)));
  }
}
