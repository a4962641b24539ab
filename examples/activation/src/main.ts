/**
 * Marketing activation: receives Entrada webhooks into a durable inbox (SQLite by default, PostgreSQL for several
 * replicas), forwards purchases to GA4 and Meta and entrances to GA4, and appends every conversion and entrance to a
 * local analytics store. A delivery is acknowledged only once stored; a crash, deploy or kill loses nothing.
 *
 *   ACTIVATION_GA4_URL="https://www.google-analytics.com/mp/collect?measurement_id=G-…&api_secret=…" \
 *   ACTIVATION_META_URL="https://graph.facebook.com/v21.0/<pixel id>/events?access_token=…" \
 *   pnpm start          # against the local mock (pnpm mock): subscribes itself, then listens on :3001
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@entrada/sdk";
import { createWebhookInbox, type WebhookInbox } from "@entrada/sdk/webhooks";
import { type ActivationOptions, activate } from "./activation.ts";
import { openDatabase } from "./database.ts";
import { DEFAULT_RETRY, type Destination, worstCaseMs } from "./forward.ts";
import { fileStore, type StoredRecord } from "./store.ts";

export interface ActivationExampleOptions extends Omit<ActivationOptions, "store" | "log"> {
  port: number;
  host: string;
  path?: string;
  /** The local analytics store (NDJSON file). */
  storePath: string;
  /** The inbox's database: a SQLite file path, or a `postgres://` URL shared by replicas. */
  databaseUrl: string;
  /** Secrets of an existing subscription; empty: subscribe at `api` (cart.completed, entrance.admitted). */
  secrets: string[];
  api?: { baseUrl: string; clientId: string; clientSecret: string; publicUrl?: string };
  /** Events processed at once by this process (default 4). */
  concurrency?: number;
  log?: (line: string) => void;
}

export interface RunningActivation {
  url: string;
  subscriptionId: string | undefined;
  /** The last 1,000 stored records, newest last (the store file has them all). */
  records: StoredRecord[];
  /** The inbox: `stats()`, `replay(id)` of a dead letter, `get(id)`. */
  inbox: WebhookInbox;
  /** Stops listening, lets the events in flight finish (bounded), closes the database. */
  close(): Promise<void>;
}

const KEEP = 1000;

export async function main(options: ActivationExampleOptions): Promise<RunningActivation> {
  const log = options.log ?? console.log;
  const path = options.path ?? "/webhooks/entrada";
  const store = fileStore(options.storePath);
  const database = openDatabase(options.databaseUrl);
  const records: StoredRecord[] = [];
  let secrets: readonly string[] = options.secrets;
  if (!secrets.length && !options.api)
    throw new Error("Set ENTRADA_WEBHOOK_SECRET, or let the example subscribe");
  const retry = options.retry ?? DEFAULT_RETRY;
  // One event forwards to GA4 and Meta at once: it may take the slower one's worst case, plus the store's append.
  const timeoutMs = worstCaseMs(retry) + 1_000;
  const inbox = createWebhookInbox({
    secrets: () => secrets,
    store: database.inbox,
    log,
    timeoutMs,
    leaseMs: timeoutMs + 5_000,
    retry: { maxAttempts: 10, baseDelayMs: 2_000, maxDelayMs: 30 * 60_000 },
    handle: async ({ event, id, signal }) => {
      const record = await activate(event, id, {
        ...options,
        retry,
        deps: { ...options.deps, signal },
        store,
        log,
      });
      if (!record) return;
      records.push(record);
      if (records.length > KEEP) records.shift();
    },
  });
  const server = createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://x.invalid").pathname !== path) return res.writeHead(404).end();
    inbox.node(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const url = `http://${options.host}:${(server.address() as AddressInfo).port}${path}`;
  const stop = new AbortController();
  const worker = inbox.start({ concurrency: options.concurrency ?? 4, signal: stop.signal });
  const close = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    stop.abort();
    await worker;
    await database.close();
  };
  log(`Listening on ${url}; inbox ${database.label}; store ${options.storePath}`);
  let subscriptionId: string | undefined;
  if (!secrets.length && options.api) {
    const { publicUrl, ...api } = options.api;
    try {
      // Replicas share one token through the database (one token request for all of them).
      const client = createClient({
        ...api,
        scope: "Shop",
        userAgent: "entrada-example-activation",
        tokenStore: database.tokens,
      });
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
    inbox,
    close,
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
    databaseUrl: env.ACTIVATION_DATABASE_URL ?? "activation.sqlite",
    ...(env.ACTIVATION_FORWARD_TIMEOUT_MS
      ? { retry: { ...DEFAULT_RETRY, timeoutMs: Number(env.ACTIVATION_FORWARD_TIMEOUT_MS) } }
      : {}),
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
