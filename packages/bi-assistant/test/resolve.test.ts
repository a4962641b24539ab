import { zoneOffset } from "@entrada/zoned-time";
import { describe, expect, it } from "vitest";
import { ArgumentProblem } from "../src/arguments.ts";
import { type EventInfo, MAX_CANDIDATES, pickEvent } from "../src/events.ts";
import { calendarDay, checkTimeZone, localTime, startOfDay } from "../src/time.ts";

const events: EventInfo[] = Array.from({ length: 50 }, (_, i) => ({
  eventId: `evt_${String(i).padStart(26, "0")}`,
  eventName: `Open Air Konzert ${i + 1}`,
  startsAt: new Date(Date.UTC(2026, 5, 1 + i, 17)).toISOString(),
  venueName: i % 2 ? "Hallenstadion Zürich" : "Palexpo Genève",
  timeZone: "Europe/Zurich",
  tickets: 10,
}));
const catalogue = { events, request: "" };
const problem = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ArgumentProblem);
    return (e as Error).message;
  }
  throw new Error("no ArgumentProblem");
};

describe("naming an event", () => {
  it("a name 50 events share is a short list to choose from, never a guess", () => {
    const text = problem(() => pickEvent(catalogue, { event: "open air" }));
    expect(text).toMatch(/^"open air" matches 50 events; which one\?/);
    expect(
      text.match(/^- Open Air Konzert \d+ \(evt_\d+, 2026-06-\d\d 19:00 Europe\/Zurich, /gm),
    ).toHaveLength(MAX_CANDIDATES);
    expect(text).toMatch(/…and 42 more\. Narrow the name, or call find_events with a venue or dates\./);
  });

  it("takes the whole name over a part of others, ignores case and accents, and finds ids", () => {
    expect(pickEvent(catalogue, { event: "OPEN AIR KONZERT 7" })?.eventId).toBe(events[6]?.eventId);
    expect(pickEvent(catalogue, { event: "konzért 50" })?.eventId).toBe(events[49]?.eventId);
    expect(pickEvent(catalogue, { event: events[3]?.eventId })?.eventName).toBe("Open Air Konzert 4");
    expect(pickEvent(catalogue, {})).toBeNull();
    expect(problem(() => pickEvent(catalogue, { event: "Jazz Nacht" }))).toMatch(
      /No event is named like "Jazz Nacht"; did you mean Open Air Konzert/,
    );
  });
});

describe("days and time zones", () => {
  it("refuses impossible days with what the month has", () => {
    expect(problem(() => calendarDay("from", "2026-02-30"))).toBe(
      "`from` is not a calendar day: 2026-02-30; 2026-02 has 28 days (the last is 2026-02-28).",
    );
    expect(problem(() => calendarDay("to", "2028-02-30"))).toMatch(/has 29 days/);
    expect(problem(() => calendarDay("to", "2026-13-01"))).toMatch(/no month 13/);
    expect(problem(() => calendarDay("to", "1.3.2026"))).toMatch(/write YYYY-MM-DD/);
    expect(calendarDay("from", "2026-03-29")).toBe(Date.UTC(2026, 2, 29));
  });

  it("takes IANA names and UTC; refuses offsets, abbreviations and unknown names with the closest", () => {
    expect(checkTimeZone("Europe/Zurich")).toBe("Europe/Zurich");
    expect(checkTimeZone("utc")).toBe("UTC");
    for (const offset of ["+01:00", "-05", "UTC+2", "GMT-3", "−02:00"])
      expect(problem(() => checkTimeZone(offset))).toMatch(/not an offset/);
    expect(problem(() => checkTimeZone("CET"))).toMatch(/abbreviation/);
    expect(problem(() => checkTimeZone("Europe/Zuerich"))).toMatch(/did you mean Europe\/Zurich\?/);
  });

  it("knows the 23-hour and 25-hour days of daylight saving", () => {
    const zone = "Europe/Zurich";
    const march = startOfDay(zone, Date.UTC(2026, 2, 29));
    const next = startOfDay(zone, Date.UTC(2026, 2, 30));
    expect(new Date(march).toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect((next - march) / 3_600_000).toBe(23);
    const october = startOfDay(zone, Date.UTC(2026, 9, 25));
    expect((startOfDay(zone, Date.UTC(2026, 9, 26)) - october) / 3_600_000).toBe(25);
    // 01:00Z on 25 October is the second 02:00 at the venue (winter time again).
    expect(localTime(zone, Date.parse("2026-10-25T01:00:00Z"))).toEqual({
      day: Date.UTC(2026, 9, 25),
      hour: 2,
      minute: 0,
    });
    expect(zoneOffset("Asia/Kolkata", Date.UTC(2026, 0, 1)) / 60_000).toBe(330);
  });
});
