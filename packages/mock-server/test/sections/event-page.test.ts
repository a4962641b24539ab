/**
 * The discovery page cache (`eventPage`): a page's text is reused only while it would render the same — the same
 * event records in the same order with the same availability, for the same culture, currency and host.
 */
import { describe, expect, it } from "vitest";
import { initialShopState } from "../../src/sections/shop/state.ts";
import { eventCursor, eventPage } from "../../src/sections/shop/views.ts";

const clock = { now: () => Date.parse("2026-11-26T08:00:00Z") };
const page = (json: { text: string }) =>
  JSON.parse(json.text) as {
    items: { id: string; available: boolean; name: string; imageUrl: string }[];
    nextCursor: string | null;
  };

describe("eventPage", () => {
  const state = initialShopState({}, clock);
  const events = state.eventOrder
    .slice(0, 3)
    .map((id) => state.events[id] as NonNullable<(typeof state.events)[string]>);
  const base = "http://127.0.0.1:4010";

  it("hands back the same text for the same page, and renders anew when a seat count changes", () => {
    const first = eventPage(state, events, false, "de-CH", "CHF", base);
    expect(eventPage(state, events, false, "de-CH", "CHF", base)).toBe(first);
    expect(page(first).items.map((i) => i.id)).toEqual(events.map((e) => e.id));
    expect(page(first).items[0]?.available).toBe(true);
    // Sell out every slot of the first event: the page must say so.
    const sold = events[0];
    for (const id of sold?.slotIds ?? []) {
      const slot = state.slots[id];
      if (slot) slot.sold = slot.capacity;
    }
    const after = eventPage(state, events, false, "de-CH", "CHF", base);
    expect(after).not.toBe(first);
    expect(page(after).items[0]?.available).toBe(false);
  });

  it("keys by culture and host", () => {
    const de = page(eventPage(state, events, false, "de-CH", "CHF", base));
    const en = page(eventPage(state, events, false, "en-GB", "CHF", base));
    expect(de.items[1]?.name).not.toBe(en.items[1]?.name);
    const other = page(eventPage(state, events, false, "de-CH", "CHF", "http://other.test"));
    expect(other.items[1]?.imageUrl.startsWith("http://other.test/")).toBe(true);
  });

  it("answers each of several alternating pages with its own text (the page answered last is checked first)", () => {
    const de = eventPage(state, events, false, "de-CH", "CHF", base);
    const en = eventPage(state, events, false, "en-GB", "CHF", base);
    const other = eventPage(state, events, false, "de-CH", "CHF", "http://other.test");
    const more = eventPage(state, events, true, "de-CH", "CHF", base);
    const shorter = eventPage(state, events.slice(0, 2), false, "de-CH", "CHF", base);
    for (let round = 0; round < 2; round++) {
      expect(eventPage(state, events, false, "de-CH", "CHF", base)).toBe(de);
      expect(eventPage(state, events, false, "en-GB", "CHF", base)).toBe(en);
      expect(eventPage(state, events, false, "de-CH", "CHF", "http://other.test")).toBe(other);
      expect(eventPage(state, events, true, "de-CH", "CHF", base)).toBe(more);
      expect(eventPage(state, events.slice(0, 2), false, "de-CH", "CHF", base)).toBe(shorter);
    }
    expect(new Set([de, en, other, more, shorter]).size).toBe(5);
    expect(page(shorter).items).toHaveLength(2);
  });

  it("ends with the cursor after its last event when more follow, and keeps the two pages apart", () => {
    const last = page(eventPage(state, events, false, "fr-CH", "CHF", base));
    const more = page(eventPage(state, events, true, "fr-CH", "CHF", base));
    expect(last.nextCursor).toBeNull();
    expect(more.nextCursor).toBe(eventCursor(events[2]?.id ?? ""));
    const decoded = atob((more.nextCursor ?? "").replace(/-/g, "+").replace(/_/g, "/"));
    expect(JSON.parse(decoded)).toEqual({ after: events[2]?.id });
    expect(page(eventPage(state, events, false, "fr-CH", "CHF", base)).nextCursor).toBeNull();
  });

  it("a reseeded catalogue (new state) renders from its own records", () => {
    const fresh = initialShopState({}, clock);
    const freshEvents = fresh.eventOrder.slice(0, 3).map((id) => fresh.events[id] as (typeof events)[number]);
    const text = eventPage(fresh, freshEvents, false, "de-CH", "CHF", base);
    expect(page(text).items[0]?.available).toBe(true);
  });
});
