import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Feed, startFeed, type ToolResult } from "./helpers.ts";

/**
 * The service description's three questions as an organiser asks them — by event name, in the venue's local time,
 * on a fresh mock — through the assistant the mock mounts, with the official MCP client. Every figure is checked
 * against sums computed here from the feed's raw rows, read in the venue's time zone with `Intl.DateTimeFormat`
 * (nothing of the assistant's own time code). A second mock's history puts events on the last Sunday of March and
 * of October 2026 (daylight-saving changes: a day of 23 and one of 25 hours).
 */

const DAY = 86_400_000;
const ZONE = "Europe/Zurich";
type Row = Record<string, unknown>;
type Page = { value: Row[]; "@odata.nextLink"?: string };

interface Mock {
  feed: Feed;
  token: string;
  client: Client;
  tickets: Row[];
  entrances: Row[];
}

async function allRows(feed: Feed, token: string, path: string): Promise<Row[]> {
  const rows: Row[] = [];
  let next: string | undefined = path;
  while (next) {
    const page: Page = await feed.odata<Page>(next, token);
    rows.push(...page.value);
    next = page["@odata.nextLink"];
  }
  return rows;
}

async function startMock(now: number, history?: Record<string, number>, language?: string): Promise<Mock> {
  const feed = await startFeed({ now: () => now, ...(history ? { seed: { bi: { history } } } : {}) });
  const token = await feed.token("Shop");
  const client = await connect(
    `${feed.mock.url}/bi/mcp`,
    token,
    language ? { "accept-language": language } : {},
  );
  const tickets = await allRows(
    feed,
    token,
    "/bi/v1/odata/Tickets?$select=EventId,EventName,EventStartsAt,Source,Status,IssuedAt,PriceAmount,Currency",
  );
  const entrances = await allRows(
    feed,
    token,
    "/bi/v1/odata/Entrances?$select=EventId,GateId,Direction,Result,ScannedAt",
  );
  return { feed, token, client, tickets, entrances };
}

const local = (timeZone: string) =>
  new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    hourCycle: "h23",
  });
const formats = new Map([[ZONE, local(ZONE)]]);
/** The local day (YYYY-MM-DD) and hour of an instant at the venues (or in another zone). */
function atVenue(iso: string, zone = ZONE): { day: string; hour: number } {
  if (!formats.has(zone)) formats.set(zone, local(zone));
  const format = formats.get(zone) as Intl.DateTimeFormat;
  const p = Object.fromEntries(format.formatToParts(Date.parse(iso)).map((x) => [x.type, x.value]));
  return { day: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) };
}

async function call(m: Mock, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await m.client.callTool({ name, arguments: args })) as ToolResult;
}

/** Shop tickets not cancelled, per local day, of an event (or all), within [from, to). */
function soldPerDay(m: Mock, eventId: string | null, from: string, to: string, zone = ZONE) {
  const days = new Map<string, { tickets: number; revenue: number }>();
  for (const t of m.tickets) {
    if (t.Source !== "shop" || t.Status === "cancelled" || (eventId && t.EventId !== eventId)) continue;
    const { day } = atVenue(t.IssuedAt as string, zone);
    if (day < from || day >= to) continue;
    const d = days.get(day) ?? { tickets: 0, revenue: 0 };
    d.tickets++;
    d.revenue += t.PriceAmount as number;
    days.set(day, d);
  }
  return days;
}

type Sales = {
  from: string;
  to: string;
  timeZone: string;
  events: { eventId: string; eventName: string; eventStartsAt: string; tickets: number }[];
  days: { eventId: string; day: string; tickets: number; revenue: number; currency: string }[];
};

/** The answer's per-day figures summed over currencies, per day. */
function answerPerDay(answer: Sales, eventId: string | null) {
  const days = new Map<string, { tickets: number; revenue: number }>();
  for (const d of answer.days) {
    if (eventId && d.eventId !== eventId) continue;
    const x = days.get(d.day) ?? { tickets: 0, revenue: 0 };
    x.tickets += d.tickets;
    x.revenue += d.revenue;
    days.set(d.day, x);
  }
  return days;
}

function expectSameDays(
  got: Map<string, { tickets: number; revenue: number }>,
  want: Map<string, { tickets: number; revenue: number }>,
) {
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [day, w] of want) {
    expect(got.get(day)?.tickets, day).toBe(w.tickets);
    expect(got.get(day)?.revenue, day).toBeCloseTo(w.revenue, 2);
  }
}

/** Admitted entries per gate and local hour of an event. */
function entriesPerGateHour(m: Mock, eventId: string) {
  const gates = new Map<string, Map<number, number>>();
  for (const s of m.entrances) {
    if (s.EventId !== eventId || s.Direction !== "entry" || s.Result !== "admitted") continue;
    const hours = gates.get(s.GateId as string) ?? new Map<number, number>();
    const { hour } = atVenue(s.ScannedAt as string);
    hours.set(hour, (hours.get(hour) ?? 0) + 1);
    gates.set(s.GateId as string, hours);
  }
  return gates;
}

describe("BI assistant: the three questions by event name, in local time, on a fresh mock", () => {
  const NOW = Date.parse("2026-11-28T13:00:00Z");
  let m: Mock;
  beforeAll(async () => {
    m = await startMock(NOW);
  });
  afterAll(async () => {
    await m.client.close();
    await m.feed.mock.close();
  });

  it("“tickets sold last week” has sales, per event and local day, equal to the raw rows", async () => {
    const result = await call(m, "sales_per_event_and_day");
    expect(result.isError).toBe(false);
    const answer = result.structuredContent as unknown as Sales;
    expect(answer).toMatchObject({ from: "2026-11-21", to: "2026-11-28", timeZone: ZONE });
    expect(answer.events.length).toBeGreaterThan(0);
    expectSameDays(answerPerDay(answer, null), soldPerDay(m, null, answer.from, answer.to));
    const text = result.content[0]?.text ?? "";
    expect(text).toContain(`days in ${ZONE} (UTC+1)`);
    expect(text).toMatch(/\| Event \| Starts \| Tickets \| Revenue \|/);
    expect(text).toMatch(/CHF\s\d{1,3}(,\d{3})*\.\d{2}/);
    expect(text.trimEnd().split("\n").at(-1)).toMatch(/^OData request .*\/bi\/v1\/odata\/Tickets\?\$apply=/);
  });

  it("reads days in another zone on request, one off UTC by half an hour too (Asia/Kolkata)", async () => {
    const args = { from: "2026-10-01", to: "2026-11-01", timeZone: "Asia/Kolkata" };
    const result = await call(m, "sales_per_event_and_day", args);
    expect(result.isError, result.content[0]?.text).toBe(false);
    const answer = result.structuredContent as unknown as Sales;
    expect(answer.timeZone).toBe("Asia/Kolkata");
    expectSameDays(answerPerDay(answer, null), soldPerDay(m, null, args.from, args.to, "Asia/Kolkata"));
    expect(result.content[0]?.text).toContain("days in Asia/Kolkata (UTC+5:30)");
  });

  it("answers by a part of the event's name, any case and accents; the table carries its name and date", async () => {
    const sold = ((await call(m, "sales_per_event_and_day")).structuredContent as unknown as Sales)
      .events[0] as Sales["events"][number];
    // Its longest word, upper-cased.
    const part = sold.eventName
      .split(" ")
      .sort((a, b) => b.length - a.length)[0]
      ?.toUpperCase() as string;
    const result = await call(m, "sales_per_event_and_day", {
      event: part,
      from: "2026-09-01",
      to: "2026-11-28",
    });
    expect(result.isError, result.content[0]?.text).toBe(false);
    const answer = result.structuredContent as unknown as Sales;
    expect(answer.events.map((e) => e.eventId)).toEqual([sold.eventId]);
    expect(answer.events[0]?.eventStartsAt).toBe(sold.eventStartsAt);
    expectSameDays(
      answerPerDay(answer, sold.eventId),
      soldPerDay(m, sold.eventId, "2026-09-01", "2026-11-28"),
    );
    expect(result.content[0]?.text).toContain(sold.eventName);
  });

  it("“no-show rate per event” by name equals the raw rows; events still to come have no rate", async () => {
    const held = m.tickets.find((t) => Date.parse(t.EventStartsAt as string) < NOW - 30 * DAY) as Row;
    const result = await call(m, "no_show_rate_per_event", { event: held.EventName as string });
    expect(result.isError, result.content[0]?.text).toBe(false);
    const { events } = result.structuredContent as {
      events: {
        eventId: string;
        tickets: number;
        admitted: number;
        noShowRate: number | null;
        held: boolean;
      }[];
    };
    const mine = m.tickets.filter((t) => t.EventId === held.EventId && t.Status !== "cancelled");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      eventId: held.EventId,
      held: true,
      tickets: mine.length,
      admitted: mine.filter((t) => t.Status === "used").length,
    });
    const rate = 1 - (events[0]?.admitted as number) / mine.length;
    expect(events[0]?.noShowRate).toBeCloseTo(rate, 4);
    expect(result.content[0]?.text).toContain(`${(Math.round(rate * 1000) / 10).toFixed(1)}%`);

    const all = (await call(m, "no_show_rate_per_event")).structuredContent as {
      events: { eventStartsAt: string; held: boolean; noShowRate: number | null; admitted: number }[];
    };
    const upcoming = all.events.filter((e) => Date.parse(e.eventStartsAt) > NOW);
    expect(upcoming.length).toBeGreaterThan(0);
    for (const e of upcoming) expect(e).toMatchObject({ held: false, noShowRate: null, admitted: 0 });
  });

  it("“peak entry hour per gate” by name: hours at the venue, equal to the raw scans", async () => {
    const held = m.tickets.find((t) => Date.parse(t.EventStartsAt as string) < NOW - 30 * DAY) as Row;
    const result = await call(m, "peak_entry_times_per_gate", { event: held.EventName as string });
    expect(result.isError, result.content[0]?.text).toBe(false);
    const { gates, timeZone } = result.structuredContent as {
      timeZone: string;
      gates: {
        eventId: string;
        gateId: string;
        peakHour: number;
        hours: { hour: number; entries: number }[];
      }[];
    };
    expect(timeZone).toBe(ZONE);
    const want = entriesPerGateHour(m, held.EventId as string);
    expect(gates.map((g) => g.gateId).sort()).toEqual([...want.keys()].sort());
    for (const g of gates) {
      expect(g.eventId).toBe(held.EventId);
      expect(new Map(g.hours.map((h) => [h.hour, h.entries]))).toEqual(want.get(g.gateId));
      // Doors open at 18:00 at the venue, and the rush is in the first three hours.
      expect(g.peakHour).toBeGreaterThanOrEqual(18);
      expect(g.peakHour).toBeLessThanOrEqual(20);
    }
    expect(result.content[0]?.text).toMatch(/hours in Europe\/Zurich \(UTC\+[12]\)/);
    // In UTC the same entries are an hour or two earlier.
    const utc = (
      await call(m, "peak_entry_times_per_gate", { event: held.EventName as string, timeZone: "UTC" })
    ).structuredContent as { timeZone: string; gates: { peakHour: number }[] };
    expect(utc.timeZone).toBe("UTC");
    expect((gates[0]?.peakHour as number) - (utc.gates[0]?.peakHour as number)).toBeGreaterThanOrEqual(1);
  });

  it("finds events by name, venue and date", async () => {
    const result = await call(m, "find_events", { venue: "hallenstadion" });
    expect(result.isError).toBe(false);
    const { events } = result.structuredContent as { events: { venueName: string; timeZone: string }[] };
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e).toMatchObject({ venueName: "Hallenstadion Zürich", timeZone: ZONE });
    const upcoming = (await call(m, "find_events", { from: "2026-11-28" })).structuredContent as {
      events: { startsAt: string }[];
    };
    expect(upcoming.events.length).toBeGreaterThan(0);
    for (const e of upcoming.events) expect(Date.parse(e.startsAt)).toBeGreaterThan(NOW - DAY);
  });

  it("every bad argument is a tool error with a suggestion, never a guess or an empty answer", async () => {
    const name = m.tickets[0]?.EventName as string;
    const id = m.tickets[0]?.EventId as string;
    const typo = `${name.slice(0, -1)}x`;
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["sales_per_event_and_day", { eventId: `${id.slice(0, -1)}0` }, /No event evt_.*did you mean .*evt_/],
      ["no_show_rate_per_event", { eventId: "evt_NOPE" }, /No event evt_NOPE in your data; did you mean/],
      [
        "peak_entry_times_per_gate",
        { event: typo },
        new RegExp(`No event is named like.*did you mean ${name}`),
      ],
      ["sales_per_event_and_day", { event: "e" }, /matches \d+ events; which one\? .*eventId/s],
      [
        "peak_entry_times_per_gate",
        { from: "2026-05-10", to: "2026-05-01" },
        /`from` \(2026-05-10\) must be before `to`/,
      ],
      [
        "no_show_rate_per_event",
        { timeZone: "Europe/Zurch" },
        /not an IANA time zone; did you mean Europe\/Zurich/,
      ],
      ["sales_per_event_and_day", { timeZone: "+01:00" }, /not an offset/],
      ["peak_entry_times_per_gate", { timeZone: "UTC+2" }, /not an offset/],
      ["sales_per_event_and_day", { timeZone: "CET" }, /abbreviation/],
      ["sales_per_event_and_day", { from: "2026-02-30", to: "2026-03-05" }, /2026-02 has 28 days/],
      ["peak_entry_times_per_gate", { to: "2026-02-29" }, /not a calendar day/],
      ["find_events", { from: "2026-02-30" }, /not a calendar day/],
      [
        "sales_per_event_and_day",
        { from: "2020-01-01", to: "2020-02-01" },
        /no data from 2020-01-01.*run from 2025-/,
      ],
      ["peak_entry_times_per_gate", { from: "2019-01-01", to: "2019-02-01" }, /no data from 2019-01-01/],
      ["find_events", { name: "Nonexistent Festival" }, /No event matches/],
    ];
    for (const [tool, args, message] of cases) {
      const result = await call(m, tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}: ${result.content[0]?.text}`).toBe(true);
      expect(result.content[0]?.text, `${tool} ${JSON.stringify(args)}`).toMatch(message);
    }
  });

  it("lists the candidates when a name matches several events", async () => {
    const blank = await call(m, "no_show_rate_per_event", { event: " " });
    expect(blank.isError).toBe(true);
    expect(blank.content[0]?.text).toMatch(/`event` is empty/);
    const several = await call(m, "sales_per_event_and_day", { event: "i" });
    expect(several.isError).toBe(true);
    const text = several.content[0]?.text ?? "";
    const listed = text.match(/^- .* \(evt_\w+, \d{4}-\d\d-\d\d 19:00 Europe\/Zurich, .*\)$/gm) ?? [];
    expect(listed.length).toBeGreaterThan(1);
    expect(text).toMatch(new RegExp(`"i" matches ${listed.length} events; which one\\?`));
  });
});

describe("BI assistant: daylight-saving days, in the caller's language", () => {
  // With 400 days of history the events are 35 days apart: the third on 29 March, the ninth on 25 October 2026.
  const NOW = Date.parse("2027-01-18T10:00:00Z");
  let m: Mock;
  beforeAll(async () => {
    m = await startMock(NOW, { seed: 11, orders: 3000, days: 400 }, "de-CH,de;q=0.9");
  });
  afterAll(async () => {
    await m.client.close();
    await m.feed.mock.close();
  });

  for (const [from, to, day] of [
    ["2026-03-27", "2026-04-01", "2026-03-29"],
    ["2026-10-23", "2026-10-28", "2026-10-25"],
  ] as const) {
    it(`sales per local day around ${day} (a daylight-saving change) equal the raw rows`, async () => {
      const result = await call(m, "sales_per_event_and_day", { from, to });
      expect(result.isError, result.content[0]?.text).toBe(false);
      const answer = result.structuredContent as unknown as Sales;
      const want = soldPerDay(m, null, from, to);
      expect(want.get(day)?.tickets).toBeGreaterThan(0);
      expectSameDays(answerPerDay(answer, null), want);
      expect(result.content[0]?.text).toContain("Europe/Zurich (UTC+1/UTC+2)");
    });
  }

  it("admissions at the events on both change days are read at the venue: doors at 18:00 local", async () => {
    for (const day of ["2026-03-29", "2026-10-25"]) {
      const found = (
        await call(m, "find_events", { from: day, to: day.replace(/\d\d$/, (d) => String(Number(d) + 1)) })
      ).structuredContent as { events: { eventId: string; eventName: string }[] };
      expect(found.events, day).toHaveLength(1);
      const event = found.events[0] as { eventId: string };
      const result = await call(m, "peak_entry_times_per_gate", { eventId: event.eventId });
      const { gates } = result.structuredContent as {
        gates: { gateId: string; hours: { hour: number; entries: number }[] }[];
      };
      const want = entriesPerGateHour(m, event.eventId);
      expect(gates.length).toBeGreaterThan(0);
      for (const g of gates) {
        expect(new Map(g.hours.map((h) => [h.hour, h.entries]))).toEqual(want.get(g.gateId));
        expect(Math.min(...g.hours.map((h) => h.hour))).toBe(18);
      }
    }
  });

  it("writes titles and figures in the caller's language (Accept-Language)", async () => {
    const result = await call(m, "sales_per_event_and_day", { from: "2026-03-01", to: "2026-04-01" });
    const text = result.content[0]?.text ?? "";
    expect(text).toMatch(/\| Veranstaltung \| Beginn \| Tickets \| Umsatz \|/);
    expect(text).toMatch(/CHF\s\d{1,3}(['’]\d{3})*\.\d{2}/);
    const rates = await call(m, "no_show_rate_per_event");
    expect(rates.content[0]?.text).toMatch(/\| No-Show-Quote \|/);
    expect(rates.content[0]?.text).toMatch(/\| \d+\.\d\s?% \|/);
  });
});
