/** The session's event log: the newest 1000 events, oldest first, by type on request; emptied by a reset. */
import { describe, expect, it } from "vitest";
import { type EmittedEvent, EVENT_LOG_SIZE, EventLog } from "../../src/core/event-log.ts";
import { createEntradaMock } from "../../src/index.ts";

const event = (n: number): EmittedEvent => ({
  id: `msg_${n}`,
  type: n % 3 === 0 ? "cart.created" : "cart.item_added",
  timestamp: "2026-11-26T18:00:00.000Z",
  data: { n },
  session: "default",
});

describe("EventLog", () => {
  it("keeps the newest events, oldest first, before and after the ring is full", () => {
    const log = new EventLog();
    for (let n = 0; n < 5; n++) log.record(event(n));
    expect(log.list().map((e) => e.id)).toEqual(["msg_0", "msg_1", "msg_2", "msg_3", "msg_4"]);
    for (let n = 5; n < EVENT_LOG_SIZE + 7; n++) log.record(event(n));
    const kept = log.list();
    expect(log.size).toBe(EVENT_LOG_SIZE);
    expect(kept).toHaveLength(EVENT_LOG_SIZE);
    expect(kept[0]?.id).toBe("msg_7");
    expect(kept.at(-1)?.id).toBe(`msg_${EVENT_LOG_SIZE + 6}`);
    expect(kept.map((e) => e.data.n)).toEqual(Array.from({ length: EVENT_LOG_SIZE }, (_, i) => i + 7));
    const created = log.list("cart.created");
    expect(created.every((e) => e.type === "cart.created")).toBe(true);
    expect(created.map((e) => e.data.n)).toEqual(
      kept.filter((e) => e.type === "cart.created").map((e) => e.data.n),
    );
    log.clear();
    expect(log.list()).toEqual([]);
    log.record(event(1));
    expect(log.list().map((e) => e.id)).toEqual(["msg_1"]);
  });

  it("answers GET /__mock/events with at most the newest 1000 of a busy session", async () => {
    const core = createEntradaMock({ rateLimit: false });
    const session = core.session();
    for (let n = 0; n < 1500; n++) core.events.publish(session, "cart.created", { cart: { id: `crt_${n}` } });
    const response = await core.handle({
      method: "GET",
      url: "http://mock/__mock/events",
      headers: {},
      body: null,
    });
    const items = JSON.parse(String(response.body)).items as EmittedEvent[];
    expect(items).toHaveLength(1000);
    expect(items[0]?.data).toEqual({ cart: { id: "crt_500" } });
    expect(items.at(-1)?.data).toEqual({ cart: { id: "crt_1499" } });
  });
});
