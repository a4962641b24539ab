import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createWebhookDeduper,
  memoryDedupeStore,
  type WebhookDedupeStore,
} from "../../src/webhooks/index.ts";

describe("createWebhookDeduper", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("claims an id once and reports later deliveries of it as duplicates", async () => {
    const dedupe = createWebhookDeduper();
    expect(await dedupe.claim("msg_1")).toBe(true);
    expect(await dedupe.claim("msg_1")).toBe(false);
    expect(await dedupe.claim("msg_2")).toBe(true);
  });

  it("reads the id from fetch Headers and Node header records", async () => {
    const dedupe = createWebhookDeduper();
    expect(await dedupe.claim(new Headers({ "webhook-id": "msg_h" }))).toBe(true);
    expect(await dedupe.claim({ "webhook-id": "msg_h" })).toBe(false);
    expect(await dedupe.claim({ "Webhook-Id": "msg_h" })).toBe(false);
    await expect(dedupe.claim({})).rejects.toThrow(TypeError);
    await expect(dedupe.claim("")).rejects.toThrow(TypeError);
  });

  it("forgets ids after the TTL", async () => {
    vi.useFakeTimers();
    const dedupe = createWebhookDeduper({ ttlMs: 1000 });
    expect(await dedupe.claim("msg_t")).toBe(true);
    vi.advanceTimersByTime(999);
    expect(await dedupe.claim("msg_t")).toBe(false);
    vi.advanceTimersByTime(2);
    expect(await dedupe.claim("msg_t")).toBe(true);
  });

  it("release lets a failed delivery be processed again", async () => {
    const dedupe = createWebhookDeduper();
    expect(await dedupe.claim("msg_r")).toBe(true);
    await dedupe.release("msg_r");
    expect(await dedupe.claim("msg_r")).toBe(true);
  });

  it("bounds the in-memory store, evicting the least recently seen id", async () => {
    const store = memoryDedupeStore(3);
    for (const id of ["a", "b", "c"]) expect(store.claim(id, 60_000)).toBe(true);
    expect(store.claim("a", 60_000)).toBe(false); // touches a: b is now the oldest
    expect(store.claim("d", 60_000)).toBe(true); // evicts b
    expect(store.claim("a", 60_000)).toBe(false);
    expect(store.claim("c", 60_000)).toBe(false);
    expect(store.claim("b", 60_000)).toBe(true);
  });

  it("delegates to a pluggable async store with the TTL", async () => {
    const seen = new Set<string>();
    const store: WebhookDedupeStore = {
      claim: vi.fn(async (id: string) => {
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      }),
      release: vi.fn(async (id: string) => {
        seen.delete(id);
      }),
    };
    const dedupe = createWebhookDeduper({ ttlMs: 5000, store });
    expect(await dedupe.claim({ "webhook-id": "msg_s" })).toBe(true);
    expect(await dedupe.claim("msg_s")).toBe(false);
    expect(store.claim).toHaveBeenCalledWith("msg_s", 5000);
    await dedupe.release("msg_s");
    expect(store.release).toHaveBeenCalledWith("msg_s");
    expect(await dedupe.claim("msg_s")).toBe(true);
  });
});
