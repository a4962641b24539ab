/**
 * `entrada-mock trigger <kind>` — fire one webhook kind at your receiver through the mock's normal signed delivery
 * path (like the Stripe CLI's `trigger`), to build a receiver kind by kind, offline.
 *
 *   entrada-mock trigger --list
 *   entrada-mock trigger cart.completed --url http://127.0.0.1:3000/webhooks [--base-url http://127.0.0.1:4010]
 *
 * It rides on the SDK against a running mock: finds (or creates) a subscription for --url, asks the contract's
 * test-event operation (`sendWebhookTestEvent`) for the kind — the contract's own example payload with every time
 * inside it moved to the mock clock's now (spacing kept) and fresh ids each time, so it is realistic, current and
 * contract-valid — and waits for the delivery's first attempt. An unknown kind exits 2 naming the nearest ones.
 */
import { parseArgs } from "node:util";
import document from "@entrada/openapi/openapi.json" with { type: "json" };
import { createClient, type EntradaClient } from "@entrada/sdk";
import { editDistance } from "../core/edit-distance.ts";

export interface TriggerIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Waits between delivery polls (tests pass the mock clock's or a no-op). */
  sleep?: (ms: number) => Promise<void>;
}

const HELP = `entrada-mock trigger — deliver one webhook kind to your receiver through a running mock

Usage:
  entrada-mock trigger --list
  entrada-mock trigger <kind> --url <receiver URL> [options]

Options:
  --url <url>            Your receiver (a subscription for it is created once and reused)
  --base-url <url>       The running mock (default http://127.0.0.1:4010)
  --client-id <id>       OAuth client (default ENTRADA_CLIENT_ID or entrada-demo)
  --client-secret <s>    (default ENTRADA_CLIENT_SECRET or demo-secret)
  --session <name>       X-Mock-Session to use (isolated state)
  --new-secret           Rotate the subscription's secret and print it
  --wait <seconds>       How long to wait for the first delivery attempt (default 10; 0: do not wait)
  --list                 List the kinds
  -h, --help             This help
`;

/** The 30 kinds of the contract's `webhooks` section with their one-line summaries. */
export function webhookKinds(): { kind: string; summary: string }[] {
  const hooks = (document as { webhooks?: Record<string, { post?: { summary?: string } }> }).webhooks ?? {};
  return Object.entries(hooks)
    .map(([kind, item]) => ({ kind, summary: item.post?.summary ?? "" }))
    .sort((a, b) => a.kind.localeCompare(b.kind));
}

/**
 * The three kinds nearest to a mistyped one: by edit distance of the whole kind and of its family and event words
 * (`cart.complete` → `cart.completed`; `order.paid` → kinds of a purchase's payment and cart).
 */
export function nearestKinds(kind: string, kinds: string[]): string[] {
  const words = kind.toLowerCase().split(/[._-]/).filter(Boolean);
  const score = (candidate: string) => {
    const theirs = candidate.split(/[._]/);
    const byWord = words.reduce(
      (sum, word) =>
        sum + Math.min(...theirs.map((w) => editDistance(word, w) / Math.max(word.length, w.length))),
      0,
    );
    return editDistance(kind.toLowerCase(), candidate) / Math.max(kind.length, candidate.length) + byWord;
  };
  return kinds
    .map((candidate) => ({ candidate, score: score(candidate) }))
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map((entry) => entry.candidate);
}

async function subscriptionFor(
  client: EntradaClient,
  url: string,
  io: TriggerIo,
  rotate: boolean,
): Promise<{ id: string; secret: string | undefined }> {
  let cursor: string | undefined;
  do {
    const { data } = await client.webhooks.listWebhookSubscriptions.orThrow({
      params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } },
    });
    const found = data.items.find((s) => s.url === url);
    if (found) {
      if (!rotate) {
        io.out(`subscription ${found.id} for ${url} (existing; --new-secret prints a fresh secret)`);
        return { id: found.id, secret: undefined };
      }
      const { data: rotated } = await client.webhooks.rotateWebhookSecret.orThrow({
        params: { path: { subscriptionId: found.id } },
        body: { overlapSeconds: 0 },
      });
      io.out(`subscription ${found.id} for ${url}: new secret ${rotated.secret}`);
      return { id: found.id, secret: rotated.secret };
    }
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  const { data: created } = await client.webhooks.createWebhookSubscription.orThrow({
    body: { url, eventTypes: ["*"], description: "entrada-mock trigger" },
  });
  io.out(
    `subscription ${created.id} for ${url} created; secret ${created.secret} (verify deliveries with it)`,
  );
  return { id: created.id, secret: created.secret };
}

/** Runs `trigger` with its arguments (after the word `trigger`); returns the exit code. */
export async function triggerMain(
  argv: string[],
  io: TriggerIo,
  env: Record<string, string | undefined> = {},
): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        url: { type: "string" },
        "base-url": { type: "string", default: "http://127.0.0.1:4010" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        session: { type: "string" },
        "new-secret": { type: "boolean", default: false },
        wait: { type: "string", default: "10" },
        list: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (e) {
    io.err(`entrada-mock trigger: ${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  const kinds = webhookKinds();
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (values.list) {
    const width = Math.max(...kinds.map((k) => k.kind.length));
    for (const k of kinds) io.out(`${k.kind.padEnd(width)}  ${k.summary}`);
    return 0;
  }
  const kind = positionals[0];
  const usage = (message: string) => {
    io.err(`entrada-mock trigger: ${message}\n\n${HELP}`);
    return 2;
  };
  if (!kind || positionals.length > 1) return usage("name one kind (entrada-mock trigger --list shows them)");
  if (!kinds.some((k) => k.kind === kind)) {
    const near = nearestKinds(
      kind,
      kinds.map((k) => k.kind),
    );
    return usage(
      `unknown kind "${kind}"; the nearest are ${near.slice(0, -1).join(", ")} and ${near.at(-1)} ` +
        "(entrada-mock trigger --list shows all 30)",
    );
  }
  const url = values.url as string | undefined;
  if (!url) return usage("--url is required: the receiver to deliver to");
  const wait = Number(values.wait);
  if (!Number.isFinite(wait) || wait < 0) return usage("--wait is a number of seconds");
  const client = createClient({
    baseUrl: values["base-url"] as string,
    clientId: (values["client-id"] as string | undefined) ?? env.ENTRADA_CLIENT_ID ?? "entrada-demo",
    clientSecret:
      (values["client-secret"] as string | undefined) ?? env.ENTRADA_CLIENT_SECRET ?? "demo-secret",
    scope: "Shop",
    ...(values.session
      ? {
          fetch: (request: Request) => {
            const withSession = new Request(request);
            withSession.headers.set("x-mock-session", values.session as string);
            return fetch(withSession);
          },
        }
      : {}),
  });
  try {
    const subscription = await subscriptionFor(client, url, io, Boolean(values["new-secret"]));
    const { data: delivery } = await client.webhooks.sendWebhookTestEvent.orThrow({
      params: { path: { subscriptionId: subscription.id } },
      body: { eventType: kind as never },
    });
    io.out(`${kind}: delivery ${delivery.id} (message ${delivery.messageId}) scheduled`);
    const sleep = io.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const deadline = Date.now() + wait * 1000;
    while (wait > 0) {
      const { data: now } = await client.webhooks.getWebhookDelivery.orThrow({
        params: { path: { deliveryId: delivery.id } },
      });
      const attempt = now.attempts[0];
      if (attempt) {
        const outcome =
          attempt.statusCode === null ? (attempt.error ?? "no response") : `HTTP ${attempt.statusCode}`;
        io.out(
          `${kind}: your receiver answered ${outcome} in ${attempt.durationMs} ms (delivery ${now.status})`,
        );
        return attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300 ? 0 : 1;
      }
      if (Date.now() >= deadline) break;
      await sleep(200);
    }
    if (wait > 0)
      io.err(`${kind}: no delivery attempt within ${wait} s (is the mock running with webhooks on?)`);
    return wait > 0 ? 1 : 0;
  } catch (e) {
    io.err(`entrada-mock trigger: ${(e as Error).message}`);
    return 1;
  }
}
