/**
 * The inbox's worker: claims due deliveries under a lease, runs the handler with a timeout, marks them done or
 * schedules a retry (exponential backoff with jitter), dead-letters after the last attempt, prunes old rows, and on
 * shutdown stops claiming and drains what is in flight within a deadline.
 */
import type { WebhookEvent } from "./events.ts";
import type { InboxRecord, InboxStore } from "./inbox-store.ts";

/** One stored delivery, handed to `handle`. */
export interface InboxMessage {
  /** The `webhook-id`: use it (or an id in the event) as the idempotency key at your destination. */
  id: string;
  type: string;
  event: WebhookEvent;
  /** This attempt's number, from 1. */
  attempt: number;
  receivedAt: Date;
  /** Aborted when the attempt times out or the worker stops past its drain deadline: pass it to `fetch`. */
  signal: AbortSignal;
}

/** Spans around receiving and processing; `inboxTracing()` of `@entrada/sdk/otel` makes OpenTelemetry ones. */
export interface InboxTracing {
  span<T>(
    name: "receive" | "process",
    attributes: Record<string, string | number>,
    work: () => Promise<T>,
  ): Promise<T>;
}

export interface InboxRetry {
  /** Attempts in all before the delivery is dead-lettered (default 8). */
  maxAttempts?: number;
  /** Backoff after the first failure (default 1 s), doubled per attempt, with jitter (50–100 % of it). */
  baseDelayMs?: number;
  /** Longest backoff (default 15 min). */
  maxDelayMs?: number;
}

export interface InboxRunOptions {
  /** Deliveries processed at once by this worker (default 4). */
  concurrency?: number;
  /** Stops the worker: no new claims; attempts in flight get `drainMs` to finish. */
  signal?: AbortSignal;
  /** How often to look for due deliveries when idle (default 1 s); a delivery stored by this process wakes it. */
  pollMs?: number;
  /** How long attempts in flight may finish after `signal` aborts (default 25 s); the rest is handed back. */
  drainMs?: number;
}

export interface WorkerConfig {
  store: InboxStore;
  handle: (message: InboxMessage) => Promise<unknown> | unknown;
  retry?: InboxRetry | undefined;
  timeoutMs?: number | undefined;
  leaseMs?: number | undefined;
  retentionMs?: number | undefined;
  deadRetentionMs?: number | undefined;
  tracing?: InboxTracing | undefined;
  log: (line: string) => void;
  now: () => number;
  random: () => number;
  /** Called by the endpoint after it stored a delivery (and by `replay`), so the worker claims it at once. */
  wakers: Set<() => void>;
}

const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 1000;
/** Marks an attempt cut short by the drain deadline (handed back, not counted as the handler's failure). */
const STOPPED = Symbol("stopped");

const describe = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/** Rejects when `signal` aborts; never settles otherwise. */
const aborted = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));

export async function runWorker(config: WorkerConfig, run: InboxRunOptions): Promise<void> {
  const { store, now, log } = config;
  const concurrency = Math.max(1, Math.floor(run.concurrency ?? 4));
  const pollMs = run.pollMs ?? 1000;
  const timeoutMs = config.timeoutMs ?? 30_000;
  const leaseMs = config.leaseMs ?? timeoutMs + 30_000;
  const maxAttempts = config.retry?.maxAttempts ?? 8;
  const baseDelayMs = config.retry?.baseDelayMs ?? 1000;
  const maxDelayMs = config.retry?.maxDelayMs ?? 15 * 60_000;
  const owner = `w_${Math.floor(config.random() * 2 ** 48).toString(36)}_${now().toString(36)}`;
  const inFlight = new Map<string, { done: Promise<void>; controller: AbortController }>();

  /** The earliest retry this worker scheduled: it looks again then rather than at the next poll. */
  let soonest = Number.POSITIVE_INFINITY;
  let woken = false;
  let interrupt: (() => void) | undefined;
  const wake = () => {
    woken = true;
    interrupt?.();
  };
  /** Waits `ms`, or less when woken (a new delivery, a finished attempt, the stop signal). */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        interrupt = undefined;
        resolve();
      }
      interrupt = done;
    });

  const backoff = (attempt: number) => {
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    return Math.round(delay / 2 + (delay / 2) * config.random());
  };

  /** A store write after an attempt; if it fails, the lease expires and the delivery is tried again elsewhere. */
  const settle = async (what: string, id: string, write: () => Promise<boolean>) => {
    try {
      if (!(await write()))
        log(
          `webhook inbox: ${id}: its lease expired before the ${what} was recorded; another worker retries it`,
        );
    } catch (error) {
      log(
        `webhook inbox: ${id}: could not record the ${what} in ${store.name} (${describe(error)}); it is tried ` +
          "again once its lease expires",
      );
    }
  };

  async function attempt(record: InboxRecord, controller: AbortController): Promise<void> {
    const { id, type, attempts } = record;
    if (attempts > maxAttempts) {
      const error = `attempt ${attempts - 1} never finished: its lease expired (the process stopped or the handler hung)`;
      log(`webhook inbox: ${id} (${type}) dead-lettered: ${error}; fix the cause, then replay("${id}")`);
      return settle("dead letter", id, () => store.fail(id, owner, error, null, now()));
    }
    const timer = setTimeout(
      () => controller.abort(new Error(`the attempt took longer than ${timeoutMs} ms`)),
      timeoutMs,
    );
    try {
      const message: InboxMessage = {
        id,
        type,
        event: JSON.parse(record.body) as WebhookEvent,
        attempt: attempts,
        receivedAt: new Date(record.receivedAt),
        signal: controller.signal,
      };
      const work = () =>
        Promise.race([Promise.resolve().then(() => config.handle(message)), aborted(controller.signal)]);
      await (config.tracing
        ? config.tracing.span(
            "process",
            { "messaging.message.id": id, "entrada.event.type": type, "entrada.inbox.attempt": attempts },
            work,
          )
        : work());
      await settle("completion", id, () => store.complete(id, owner, now()));
    } catch (thrown) {
      if (controller.signal.reason === STOPPED) {
        // Handed back, due at once, so another replica (or the next start) takes it without waiting for the lease.
        return settle("hand-back", id, () =>
          store.fail(id, owner, "the worker stopped before the attempt finished", now(), now()),
        );
      }
      const error = describe(controller.signal.aborted ? controller.signal.reason : thrown);
      if (attempts >= maxAttempts) {
        log(
          `webhook inbox: ${id} (${type}) dead-lettered after ${attempts} attempts: ${error}; fix the cause, ` +
            `then replay("${id}")`,
        );
        return settle("dead letter", id, () => store.fail(id, owner, error, null, now()));
      }
      const delay = backoff(attempts);
      soonest = Math.min(soonest, now() + delay);
      log(`webhook inbox: ${id} (${type}) attempt ${attempts} failed: ${error}; retrying in ${delay} ms`);
      return settle("failure", id, () => store.fail(id, owner, error, now() + delay, now()));
    } finally {
      clearTimeout(timer);
    }
  }

  const begin = (record: InboxRecord) => {
    const controller = new AbortController();
    const done = attempt(record, controller).finally(() => {
      inFlight.delete(record.id);
      wake();
    });
    inFlight.set(record.id, { done, controller });
  };

  let nextPrune = 0;
  const prune = async () => {
    const at = now();
    if (at < nextPrune) return;
    nextPrune = at + PRUNE_EVERY_MS;
    const doneBefore = at - (config.retentionMs ?? 7 * 86_400_000);
    const deadBefore = at - (config.deadRetentionMs ?? 30 * 86_400_000);
    // Batches, so one prune never holds the table long.
    while ((await store.prune(doneBefore, deadBefore, PRUNE_BATCH)) >= PRUNE_BATCH) {}
  };

  config.wakers.add(wake);
  run.signal?.addEventListener("abort", wake, { once: true });
  let failures = 0;
  try {
    while (!run.signal?.aborted) {
      woken = false;
      const free = concurrency - inFlight.size;
      let wait = pollMs;
      if (free > 0) {
        try {
          const at = now();
          if (soonest <= at) soonest = Number.POSITIVE_INFINITY;
          const records = await store.claim({ now: at, limit: free, owner, leaseUntil: at + leaseMs });
          for (const record of records) begin(record);
          await prune();
          failures = 0;
          // A full batch: more may be due, look again at once.
          if (records.length === free) continue;
          wait = Math.min(pollMs, Math.max(0, soonest - now()));
        } catch (error) {
          failures++;
          wait = Math.min(30_000, pollMs * 2 ** Math.min(failures, 5));
          log(
            `webhook inbox: cannot claim deliveries from ${store.name} (${describe(error)}); retrying in ` +
              `${wait} ms: check that the database is reachable`,
          );
          woken = false;
        }
      }
      await pause(wait);
    }
  } finally {
    config.wakers.delete(wake);
  }

  const drained = Promise.allSettled([...inFlight.values()].map((t) => t.done));
  let deadline: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([drained, new Promise((r) => (deadline = setTimeout(r, run.drainMs ?? 25_000)))]);
  clearTimeout(deadline);
  for (const task of inFlight.values()) task.controller.abort(STOPPED);
  await Promise.allSettled([...inFlight.values()].map((t) => t.done));
}
