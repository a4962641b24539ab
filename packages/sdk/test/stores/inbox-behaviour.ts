/**
 * The inbox over a real store (SQLite and PostgreSQL): what the endpoint answers and stores, and what the worker
 * does with failures, hangs, poison events, leases, shutdown and retention. Time is an injected clock; the worker
 * polls every few ms of real time and the tests wait with `expect.poll`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  createWebhookInbox,
  type InboxMessage,
  type InboxStore,
  signWebhook,
  type WebhookInboxOptions,
} from "../../src/webhooks/index.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const T0 = 1_800_000_000_000;

export function inboxBehaviour(name: string, open: () => Promise<InboxStore>): void {
  describe(`webhook inbox on ${name}`, () => {
    let clock = T0;
    const stops: AbortController[] = [];
    afterEach(() => {
      for (const s of stops.splice(0)) s.abort();
      clock = T0;
    });

    async function setup(overrides: Partial<WebhookInboxOptions> = {}) {
      const store = await open();
      const log: string[] = [];
      const handled: InboxMessage[] = [];
      const inbox = createWebhookInbox({
        secrets: SECRET,
        store,
        handle: (m) => void handled.push(m),
        now: () => clock,
        random: () => 0.5,
        log: (line) => void log.push(line),
        ...overrides,
      });
      const start = (options: Parameters<typeof inbox.start>[0] = {}) => {
        const stop = new AbortController();
        stops.push(stop);
        const done = inbox.start({ pollMs: 5, concurrency: 2, signal: stop.signal, ...options });
        return { stop, done };
      };
      return { store, inbox, log, handled, start };
    }

    async function delivery(id: string, data: unknown = { n: 1 }, at = clock, type = "cart.completed") {
      const body = JSON.stringify({ type, timestamp: "2027-01-15T08:00:00Z", data });
      const headers = await signWebhook({ id, timestamp: Math.floor(at / 1000), body, secret: SECRET });
      return new Request("http://inbox.test/webhooks", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    }

    it("stores a verified delivery before it answers 202; a redelivery answers 200 and stores nothing", async () => {
      const { inbox, store } = await setup();
      const first = await inbox.handler(await delivery("msg_1"));
      expect(first.status).toBe(202);
      expect(await first.json()).toEqual({ id: "msg_1", stored: true });
      expect((await store.get("msg_1"))?.status).toBe("pending");
      const again = await inbox.handler(await delivery("msg_1", { n: 2 }));
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ id: "msg_1", duplicate: true });
      expect(JSON.parse((await store.get("msg_1"))?.body ?? "").data).toEqual({ n: 1 });
    });

    it("refuses forged, stale and future signatures with 401 and stores nothing", async () => {
      const seen: unknown[] = [];
      const { inbox, store, log } = await setup({ onAnswer: (a) => void seen.push(a) });
      const forged = await delivery("msg_forged");
      const headers = new Headers(forged.headers);
      headers.set("webhook-signature", "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=");
      const attempts = [
        new Request(forged.url, { method: "POST", headers, body: await forged.text() }),
        await delivery("msg_stale", {}, clock - 301_000),
        await delivery("msg_future", {}, clock + 301_000),
      ];
      const answers = await Promise.all(attempts.map((r) => inbox.handler(r)));
      expect(answers.map((a) => a.status)).toEqual([401, 401, 401]);
      expect(answers[1]?.headers.get("content-type")).toBe("application/problem+json");
      expect(await answers[1]?.json()).toMatchObject({ title: "timestamp_too_old", status: 401 });
      expect(await store.counts(clock)).toMatchObject({ pending: 0 });
      expect(log.join("\n")).toMatch(/no_matching_signature.*nothing stored/);
      const unsigned = new Request(forged.url, { method: "POST", body: "{}" });
      expect((await inbox.handler(unsigned)).status).toBe(400);
      await inbox.handler(await delivery("msg_ok"));
      await inbox.handler(await delivery("msg_ok"));
      expect(seen).toEqual([
        { status: 401, code: "no_matching_signature" },
        { status: 401, code: "timestamp_too_old" },
        { status: 401, code: "timestamp_too_new" },
        { status: 400, code: "missing_header" },
        { status: 202, id: "msg_ok" },
        { status: 200, id: "msg_ok", duplicate: true },
      ]);
    });

    it("answers 413 to a body over the limit, declared or streamed, and 405 to other methods", async () => {
      const { inbox, store } = await setup({ maxBodyBytes: 64 });
      const big = await delivery("msg_big", { pad: "x".repeat(200) });
      expect((await inbox.handler(big.clone())).status).toBe(413);
      const body = await big.text();
      const streamed = new Request(big.url, {
        method: "POST",
        headers: big.headers,
        body: new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode(body));
            c.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
      expect(streamed.headers.get("content-length")).toBeNull();
      expect((await inbox.handler(streamed)).status).toBe(413);
      expect((await inbox.handler(new Request(big.url))).status).toBe(405);
      expect(await store.get("msg_big")).toBeUndefined();
    });

    it("answers 503 when the store cannot write, and tells what to do", async () => {
      const { inbox, store, log } = await setup({
        store: await open().then((s) => ({ ...s, add: () => Promise.reject(new Error("disk I/O error")) })),
      });
      const answer = await inbox.handler(await delivery("msg_503"));
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("30");
      expect(log.at(-1)).toMatch(/could not store delivery msg_503 .*disk I\/O error.*answered 503/);
      expect(await store.get("msg_503")).toBeUndefined();
    });

    it("serves node:http with the same answers", async () => {
      const { inbox, store } = await setup({ maxBodyBytes: 512 });
      const server = createServer(inbox.node);
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      try {
        const ok = await delivery("msg_node");
        const sent = await fetch(url, { method: "POST", headers: ok.headers, body: await ok.text() });
        expect(sent.status).toBe(202);
        const big = await delivery("msg_node_big", { pad: "x".repeat(600) });
        expect(
          (await fetch(url, { method: "POST", headers: big.headers, body: await big.text() })).status,
        ).toBe(413);
        expect((await store.get("msg_node"))?.status).toBe("pending");
      } finally {
        server.close();
      }
    });

    it("processes stored deliveries and marks them done", async () => {
      const { inbox, handled, start } = await setup();
      for (const id of ["msg_w1", "msg_w2", "msg_w3"]) await inbox.handler(await delivery(id, { id }));
      start();
      await expect.poll(() => handled.length).toBe(3);
      expect(
        handled.map((m) => [m.id, m.type, m.attempt, (m.event.data as unknown as { id: string }).id]).sort(),
      ).toEqual([
        ["msg_w1", "cart.completed", 1, "msg_w1"],
        ["msg_w2", "cart.completed", 1, "msg_w2"],
        ["msg_w3", "cart.completed", 1, "msg_w3"],
      ]);
      await expect.poll(async () => (await inbox.stats()).done).toBe(3);
      expect(await inbox.stats()).toMatchObject({ pending: 0, inFlight: 0, dead: 0, oldestPendingAgeMs: 0 });
    });

    it("retries a failure with exponential backoff, dead-letters after the last attempt, replays it", async () => {
      let fail = true;
      const attempts: number[] = [];
      const { inbox, start, log } = await setup({
        retry: { maxAttempts: 3, baseDelayMs: 1000 },
        handle: (m) => {
          attempts.push(m.attempt);
          if (fail) throw new Error(`GA4 answered 503 (attempt ${m.attempt})`);
        },
      });
      await inbox.handler(await delivery("msg_retry"));
      start();
      await expect.poll(async () => (await inbox.get("msg_retry"))?.lastError).toMatch(/attempt 1/);
      // Backoff 1 s × 2^0 with jitter 0.5 → 750 ms.
      expect((await inbox.get("msg_retry"))?.dueAt).toBe(T0 + 750);
      clock += 750;
      await expect.poll(async () => (await inbox.get("msg_retry"))?.lastError).toMatch(/attempt 2/);
      expect((await inbox.get("msg_retry"))?.dueAt).toBe(clock + 1500);
      clock += 1500;
      await expect.poll(async () => (await inbox.get("msg_retry"))?.status).toBe("dead");
      expect(attempts).toEqual([1, 2, 3]);
      expect(await inbox.stats()).toMatchObject({ dead: 1, pending: 0 });
      expect(log.join("\n")).toMatch(
        /msg_retry \(cart.completed\) dead-lettered after 3 attempts: .*attempt 3/,
      );
      expect(log.join("\n")).toMatch(/replay\("msg_retry"\)/);
      fail = false;
      expect(await inbox.replay("msg_retry")).toBe(true);
      await expect.poll(async () => (await inbox.get("msg_retry"))?.status).toBe("done");
      expect(attempts).toEqual([1, 2, 3, 1]);
    });

    it("never lets a poison event block the others", async () => {
      const handled: string[] = [];
      const { inbox, start } = await setup({
        retry: { maxAttempts: 2, baseDelayMs: 1 },
        handle: (m) => {
          if (m.id === "msg_poison") throw new TypeError("cannot read properties of undefined");
          handled.push(m.id);
        },
      });
      await inbox.handler(await delivery("msg_poison"));
      for (let i = 0; i < 5; i++) await inbox.handler(await delivery(`msg_ok${i}`));
      start({ concurrency: 1 });
      await expect.poll(() => handled.length).toBe(5);
      clock += 10;
      await expect.poll(async () => (await inbox.get("msg_poison"))?.status).toBe("dead");
    });

    it("bounds a hanging handler by the timeout and aborts its signal", async () => {
      let signal: AbortSignal | undefined;
      const { inbox, start } = await setup({
        timeoutMs: 30,
        handle: (m) => {
          signal = m.signal;
          return new Promise(() => {});
        },
      });
      await inbox.handler(await delivery("msg_hang"));
      start();
      await expect.poll(async () => (await inbox.get("msg_hang"))?.lastError).toMatch(/longer than 30 ms/);
      expect(signal?.aborted).toBe(true);
      expect((await inbox.get("msg_hang"))?.status).toBe("pending");
    });

    it("takes over a delivery whose worker died, and dead-letters one whose leases keep expiring", async () => {
      const { inbox, store, handled, start } = await setup({ leaseMs: 1000, retry: { maxAttempts: 2 } });
      // msg_crashy has been claimed twice by replicas that were killed before they finished.
      await inbox.handler(await delivery("msg_crashy"));
      await store.claim({ now: clock, limit: 1, owner: "killed-1", leaseUntil: clock + 1000 });
      clock += 1000;
      await store.claim({ now: clock, limit: 1, owner: "killed-2", leaseUntil: clock + 1000 });
      // msg_orphan's replica was killed once; its lease has just ended.
      await inbox.handler(await delivery("msg_orphan"));
      await store.claim({ now: clock, limit: 1, owner: "killed-3", leaseUntil: clock });
      const { done, stop } = start();
      // Only msg_orphan was free: nothing happens for msg_crashy until its lease ends.
      await expect.poll(() => handled.map((m) => [m.id, m.attempt])).toEqual([["msg_orphan", 2]]);
      clock += 1000;
      await expect.poll(async () => (await inbox.get("msg_crashy"))?.status).toBe("dead");
      expect((await inbox.get("msg_crashy"))?.lastError).toMatch(/lease expired/);
      stop.abort();
      await done;
    });

    it("on stop, claims nothing new and finishes what is in flight; past the deadline hands it back", async () => {
      let release: () => void = () => {};
      const started: string[] = [];
      const { inbox, start } = await setup({
        handle: (m) => {
          started.push(m.id);
          return new Promise<void>((r) => {
            release = r;
          });
        },
      });
      await inbox.handler(await delivery("msg_drain"));
      const first = start({ concurrency: 1 });
      await expect.poll(() => started).toEqual(["msg_drain"]);
      await inbox.handler(await delivery("msg_after"));
      first.stop.abort();
      let stopped = false;
      first.done.then(() => (stopped = true));
      await Promise.resolve();
      expect(stopped).toBe(false);
      release();
      await first.done;
      expect((await inbox.get("msg_drain"))?.status).toBe("done");
      expect((await inbox.get("msg_after"))?.status).toBe("pending");

      const second = start({ concurrency: 1, drainMs: 10 });
      await expect.poll(() => started).toEqual(["msg_drain", "msg_after"]);
      second.stop.abort();
      await second.done; // the handler never finishes: the deadline hands it back
      expect(await inbox.get("msg_after")).toMatchObject({
        status: "pending",
        dueAt: clock,
        lastError: "the worker stopped before the attempt finished",
      });
    });

    it("prunes done rows after the retention and dead letters after theirs", async () => {
      const { inbox, handled, start } = await setup({
        retentionMs: 7 * 86_400_000,
        deadRetentionMs: 30 * 86_400_000,
      });
      await inbox.handler(await delivery("msg_old"));
      const first = start();
      await expect.poll(() => handled.length).toBe(1);
      await expect.poll(async () => (await inbox.get("msg_old"))?.status).toBe("done");
      first.stop.abort();
      await first.done;
      clock += 7 * 86_400_000 - 1;
      const second = start();
      await expect.poll(async () => (await inbox.stats()).pending).toBe(0);
      second.stop.abort();
      await second.done;
      expect(await inbox.get("msg_old")).toBeDefined(); // within the retention: a late redelivery is still a duplicate
      clock += 2;
      const third = start();
      await expect.poll(async () => inbox.get("msg_old")).toBeUndefined();
      third.stop.abort();
      await third.done;
    });

    it("wraps receiving and processing in spans when tracing is given", async () => {
      const spans: string[] = [];
      const { inbox, start, handled } = await setup({
        tracing: {
          span: (name, attributes, work) => {
            spans.push(`${name} ${attributes["messaging.message.id"]}`);
            return work();
          },
        },
      });
      await inbox.handler(await delivery("msg_span"));
      start();
      await expect.poll(() => handled.length).toBe(1);
      expect(spans).toEqual(["receive msg_span", "process msg_span"]);
    });
  });
}
