/**
 * What every `InboxStore` must do, run against SQLite and PostgreSQL (sqlite.test.ts, postgres.test.ts): unique on
 * the delivery id, atomic claims under a lease, owner-checked completion and failure, replay, counts and pruning.
 */
import { describe, expect, it } from "vitest";
import type { InboxStore } from "../../src/webhooks/inbox-store.ts";

const T0 = 1_800_000_000_000;
const row = (id: string, receivedAt = T0) => ({
  id,
  type: "cart.completed",
  body: `{"id":"${id}"}`,
  receivedAt,
});

export function inboxStoreConformance(name: string, open: () => Promise<InboxStore>): void {
  describe(`${name} inbox store (conformance)`, () => {
    it("stores a delivery once: a second add of the same id changes nothing", async () => {
      const store = await open();
      expect(await store.add(row("msg_a"))).toBe(true);
      expect(await store.add({ ...row("msg_a"), body: "{}", receivedAt: T0 + 5 })).toBe(false);
      expect(await store.get("msg_a")).toEqual({
        id: "msg_a",
        type: "cart.completed",
        body: '{"id":"msg_a"}',
        receivedAt: T0,
        status: "pending",
        attempts: 0,
        lastError: null,
        dueAt: T0,
      });
      expect(await store.get("msg_missing")).toBeUndefined();
    });

    it("claims due rows oldest first under a lease, counting an attempt; not before they are due", async () => {
      const store = await open();
      await store.add(row("msg_2", T0 + 2));
      await store.add(row("msg_1", T0 + 1));
      await store.add(row("msg_later", T0 + 60_000));
      const oldest = await store.claim({ now: T0 + 10, limit: 1, owner: "w1", leaseUntil: T0 + 1000 });
      expect(oldest.map((r) => [r.id, r.status, r.attempts, r.dueAt])).toEqual([
        ["msg_1", "running", 1, T0 + 1000],
      ]);
      const next = await store.claim({ now: T0 + 10, limit: 5, owner: "w1", leaseUntil: T0 + 1000 });
      expect(next.map((r) => [r.id, r.status, r.attempts, r.dueAt])).toEqual([
        ["msg_2", "running", 1, T0 + 1000],
      ]);
      // Leased: nobody else gets them before the lease ends.
      expect(await store.claim({ now: T0 + 999, limit: 5, owner: "w2", leaseUntil: T0 + 2000 })).toEqual([]);
      // The lease expired (the worker died): another worker takes them over, a second attempt.
      const again = await store.claim({ now: T0 + 1000, limit: 1, owner: "w2", leaseUntil: T0 + 3000 });
      expect(again.map((r) => [r.id, r.attempts])).toEqual([["msg_1", 2]]);
      // The first owner lost it: its completion is refused, the new owner's is recorded.
      expect(await store.complete("msg_1", "w1", T0 + 1001)).toBe(false);
      expect(await store.complete("msg_1", "w2", T0 + 1001)).toBe(true);
      expect((await store.get("msg_1"))?.status).toBe("done");
      expect((await store.get("msg_1"))?.dueAt).toBeNull();
    });

    it("never hands one row to two concurrent claims", async () => {
      const store = await open();
      for (let i = 0; i < 40; i++) await store.add(row(`msg_c${String(i).padStart(2, "0")}`, T0 + i));
      const batches = await Promise.all(
        Array.from({ length: 8 }, (_, w) =>
          store.claim({ now: T0 + 100, limit: 7, owner: `w${w}`, leaseUntil: T0 + 10_000 }),
        ),
      );
      const ids = batches.flat().map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(40);
    });

    it("records failures: pending again at the retry time, or dead with the last error; only by the owner", async () => {
      const store = await open();
      await store.add(row("msg_f"));
      await store.claim({ now: T0, limit: 1, owner: "w1", leaseUntil: T0 + 1000 });
      expect(await store.fail("msg_f", "other", "nope", T0 + 500, T0)).toBe(false);
      expect(await store.fail("msg_f", "w1", "HTTP 503", T0 + 500, T0)).toBe(true);
      expect(await store.get("msg_f")).toMatchObject({
        status: "pending",
        dueAt: T0 + 500,
        lastError: "HTTP 503",
      });
      expect(await store.claim({ now: T0 + 499, limit: 1, owner: "w1", leaseUntil: T0 + 2000 })).toEqual([]);
      await store.claim({ now: T0 + 500, limit: 1, owner: "w1", leaseUntil: T0 + 2000 });
      expect(await store.fail("msg_f", "w1", "x".repeat(5000), null, T0 + 600)).toBe(true);
      const dead = await store.get("msg_f");
      expect(dead).toMatchObject({ status: "dead", dueAt: null, attempts: 2 });
      expect(dead?.lastError?.length).toBe(2000);
      expect(
        await store.claim({ now: T0 + 10 ** 9, limit: 5, owner: "w1", leaseUntil: T0 + 10 ** 10 }),
      ).toEqual([]);
    });

    it("replays a dead or done delivery from attempt one; nothing else", async () => {
      const store = await open();
      await store.add(row("msg_r"));
      expect(await store.replay("msg_r", T0)).toBe(false); // pending: nothing to replay
      await store.claim({ now: T0, limit: 1, owner: "w", leaseUntil: T0 + 100 });
      await store.fail("msg_r", "w", "boom", null, T0 + 1);
      expect(await store.replay("msg_r", T0 + 50)).toBe(true);
      expect(await store.get("msg_r")).toMatchObject({ status: "pending", attempts: 0, dueAt: T0 + 50 });
      expect(await store.replay("msg_unknown", T0)).toBe(false);
    });

    it("counts pending (with expired leases), in flight, dead and done, and the oldest pending", async () => {
      const store = await open();
      expect(await store.counts(T0)).toEqual({
        pending: 0,
        inFlight: 0,
        dead: 0,
        done: 0,
        oldestPendingAt: null,
      });
      for (const [i, id] of ["msg_k1", "msg_k2", "msg_k3", "msg_k4", "msg_k5"].entries())
        await store.add(row(id, T0 + i));
      const [a, b, c] = await store.claim({ now: T0 + 10, limit: 3, owner: "w", leaseUntil: T0 + 100 });
      await store.complete(a?.id as string, "w", T0 + 20);
      await store.fail(b?.id as string, "w", "bad", null, T0 + 20);
      expect(c?.id).toBe("msg_k3");
      expect(await store.counts(T0 + 50)).toEqual({
        pending: 2,
        inFlight: 1,
        dead: 1,
        done: 1,
        oldestPendingAt: T0 + 3,
      });
      // msg_k3's lease expired: pending again, and now the oldest.
      expect(await store.counts(T0 + 100)).toMatchObject({
        pending: 3,
        inFlight: 0,
        oldestPendingAt: T0 + 2,
      });
    });

    it("prunes done and dead rows past their retention, in batches, never pending or running ones", async () => {
      const store = await open();
      for (let i = 0; i < 6; i++) await store.add(row(`msg_p${i}`, T0));
      const claimed = await store.claim({ now: T0, limit: 5, owner: "w", leaseUntil: T0 + 10 ** 9 });
      // p0, p1, p2 done at T0+1..3; p3 dead at T0+4; p4 running; p5 pending.
      for (const [i, r] of claimed.slice(0, 3).entries()) await store.complete(r.id, "w", T0 + 1 + i);
      await store.fail("msg_p3", "w", "bad", null, T0 + 4);
      expect(await store.prune(T0 + 3, T0, 1)).toBe(1);
      expect(await store.prune(T0 + 3, T0, 100)).toBe(1); // p2 finished at T0+3: not before the cut-off
      expect(await store.get("msg_p2")).toBeDefined();
      expect(await store.prune(T0 + 100, T0 + 5, 100)).toBe(2);
      const left = await Promise.all(
        ["msg_p0", "msg_p2", "msg_p3", "msg_p4", "msg_p5"].map((id) => store.get(id)),
      );
      expect(left.map((r) => r?.status)).toEqual([undefined, undefined, undefined, "running", "pending"]);
    });
  });
}
