import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, bearer, read, startApi } from "../helpers.ts";

/**
 * The feed as an organiser reads it: a seeded history that reaches the mock's today, venues with their IANA time
 * zone (doors at 18:00 local, summer or winter), vouchers on orders, exact `$count`s over filters no index answers,
 * and impossible dates refused.
 */

const NOW = Date.parse("2026-11-28T13:00:00Z");
let api: Api;
let token: string;

beforeAll(async () => {
  api = await startApi({ now: () => NOW, seed: { bi: { history: { seed: 7, orders: 1200, days: 365 } } } });
  token = await api.token("Shop");
});
afterAll(() => api.close());

async function rows(path: string): Promise<Record<string, unknown>[]> {
  const response = await api.fetch(`/bi/v1/odata/${path}`, {
    headers: { ...bearer(token), prefer: "odata.maxpagesize=5000" },
  });
  expect(response.status, path).toBe(200);
  const body = await read.odataPage(response);
  expect(body["@odata.nextLink"]).toBeUndefined();
  return body.value;
}

async function count(filter: string): Promise<number> {
  const response = await api.fetch(`/bi/v1/odata/Tickets/$count?$filter=${encodeURIComponent(filter)}`, {
    headers: bearer(token),
  });
  expect(response.status, filter).toBe(200);
  return Number(await response.text());
}

const DAY = 86_400_000;
const today = Math.floor(NOW / DAY) * DAY;

describe("BI feed: a history in the organiser's terms", () => {
  it("sells up to yesterday (the clock's today), has events still to come, and nothing after today's start", async () => {
    const tickets = await rows("Tickets?$select=IssuedAt,EventStartsAt,Status,FirstAdmittedAt");
    const issued = tickets.map((t) => Date.parse(t.IssuedAt as string));
    expect(Math.max(...issued)).toBeLessThan(today);
    expect(issued.filter((t) => t >= today - 7 * DAY).length).toBeGreaterThan(10);
    const upcoming = tickets.filter((t) => Date.parse(t.EventStartsAt as string) > NOW);
    expect(upcoming.length).toBeGreaterThan(0);
    // An event still to come has admitted no one.
    expect(upcoming.every((t) => t.Status !== "used" && t.FirstAdmittedAt === null)).toBe(true);
    const scans = await rows("Entrances?$select=ScannedAt");
    expect(Math.max(...scans.map((s) => Date.parse(s.ScannedAt as string)))).toBeLessThan(
      today + 3 * 3_600_000,
    );
  });

  it("starts each event at 19:00 at its venue, in winter and in summer time, and names the venue's zone", async () => {
    const tickets = await rows("Tickets?$apply=groupby((EventId,EventStartsAt,VenueName,VenueTimeZone))");
    expect(tickets.length).toBeGreaterThan(8);
    const local = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Zurich",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    const utcHours = new Set<number>();
    for (const t of tickets) {
      expect(t.VenueTimeZone).toBe("Europe/Zurich");
      const at = Date.parse(t.EventStartsAt as string);
      expect(local.format(at)).toBe("19:00");
      utcHours.add(new Date(at).getUTCHours());
    }
    // Both sides of daylight saving: 18:00Z in winter, 17:00Z in summer.
    expect([...utcHours].sort()).toEqual([17, 18]);
    const gates = await rows("Entrances?$apply=groupby((VenueTimeZone))");
    expect(gates).toEqual([{ VenueTimeZone: "Europe/Zurich" }]);
  });

  it("carries vouchers on orders: the discount taken off the total, the code as typed", async () => {
    const orders = await rows("Orders?$select=OrderId,TotalAmount,DiscountAmount,VoucherCode,TicketCount");
    const withVoucher = orders.filter((o) => o.VoucherCode !== null);
    expect(withVoucher.length).toBeGreaterThan(orders.length * 0.08);
    expect(withVoucher.length).toBeLessThan(orders.length * 0.25);
    expect(new Set(withVoucher.map((o) => o.VoucherCode))).toEqual(
      new Set(["EARLYBIRD", "FRIENDS10", "WELCOME5"]),
    );
    for (const o of withVoucher) expect(o.DiscountAmount as number).toBeGreaterThan(0);
    for (const o of orders.filter((o) => o.VoucherCode === null)) expect(o.DiscountAmount).toBe(0);
    // The payment of an order charged the total after the discount.
    const sample = withVoucher[0] as Record<string, unknown>;
    const payments = await rows(`Payments?$filter=OrderId eq '${sample.OrderId}'&$select=Amount`);
    expect(payments.map((p) => p.Amount)).toEqual([sample.TotalAmount]);
    const summed = await rows("Orders?$apply=aggregate(DiscountAmount with sum as Discounts)");
    const want = orders.reduce((n, o) => n + (o.DiscountAmount as number), 0);
    expect(summed[0]?.Discounts).toBeCloseTo(want, 6);
  });

  it("counts filters on events, statuses and dates exactly as the rows say", async () => {
    const tickets = await rows("Tickets?$select=EventId,Status,IssuedAt");
    const event = String(tickets[5]?.EventId);
    const from = Date.parse("2026-10-01T00:00:00Z");
    expect(await count(`EventId eq '${event}' and Status ne 'cancelled'`)).toBe(
      tickets.filter((t) => t.EventId === event && t.Status !== "cancelled").length,
    );
    expect(await count("IssuedAt ge 2026-10-01T00:00:00Z and Status eq 'valid'")).toBe(
      tickets.filter((t) => Date.parse(t.IssuedAt as string) >= from && t.Status === "valid").length,
    );
    // `$top=0&$count=true`, as Excel asks: the same count and no rows.
    const response = await api.fetch(
      `/bi/v1/odata/Tickets?$top=0&$count=true&$filter=${encodeURIComponent(`EventId eq '${event}'`)}`,
      { headers: bearer(token) },
    );
    const body = await read.odataPage(response);
    expect(body.value).toEqual([]);
    expect(body["@odata.nextLink"]).toBeUndefined();
    expect(body["@odata.count"]).toBe(tickets.filter((t) => t.EventId === event).length);
  });

  it("counts groups of coded and few-valued columns exactly as the rows say (filtered or not)", async () => {
    const tickets = await rows("Tickets?$select=EventId,EventStartsAt,VenueName,Status,Source");
    for (const filter of [null, "Status ne 'cancelled' and Source eq 'shop'"]) {
      const apply = `${filter ? `filter(${filter})/` : ""}groupby((EventId,EventStartsAt,VenueName,Status),aggregate($count as Tickets))`;
      const got = await rows(`Tickets?$apply=${encodeURIComponent(apply)}`);
      const want = new Map<string, number>();
      for (const t of tickets) {
        if (filter && (t.Status === "cancelled" || t.Source !== "shop")) continue;
        const key = [t.EventId, t.EventStartsAt, t.VenueName, t.Status].join("|");
        want.set(key, (want.get(key) ?? 0) + 1);
      }
      expect(
        new Map(got.map((g) => [[g.EventId, g.EventStartsAt, g.VenueName, g.Status].join("|"), g.Tickets])),
      ).toEqual(want);
      // Ordered by the grouping values, as every aggregation is.
      const keys = got.map((g) => `${g.EventId}|${g.EventStartsAt}`);
      expect(keys).toEqual([...keys].sort());
    }
  });

  it("refuses an impossible day or date-time in $filter with an OData 400 naming it, and an unknown column", async () => {
    for (const literal of [
      "2026-02-30",
      "2026-02-30T00:00:00Z",
      "2026-04-31T10:00:00Z",
      "2026-03-01T24:00:00Z",
    ]) {
      const response = await api.fetch(
        `/bi/v1/odata/Tickets?$filter=${encodeURIComponent(`IssuedAt ge ${literal}`)}`,
        { headers: bearer(token) },
      );
      expect(response.status, literal).toBe(400);
      const body = await read.odataError(response);
      expect(body.error.message).toContain(literal);
      expect(body.error.target).toBe("$filter");
    }
    const response = await api.fetch(
      `/bi/v1/odata/Tickets/$count?$filter=${encodeURIComponent("IssuedOn ge 2026-02-01")}`,
      {
        headers: bearer(token),
      },
    );
    expect(response.status).toBe(400);
    const { error } = await read.odataError(response);
    expect([error.message, ...(error.details ?? []).map((d) => d.message)].join(" ")).toMatch(
      /IssuedOn.*IssuedAt/s,
    );
  });

  it("lists venues with their time zone", async () => {
    const response = await api.fetch("/shop/v1/discovery/venues", {
      headers: bearer(await api.token("Shop")),
    });
    expect(response.status).toBe(200);
    const { items } = await read.body(response, "listVenues");
    expect(items.length).toBeGreaterThan(0);
    for (const v of items)
      expect(new Intl.DateTimeFormat("en", { timeZone: v.timeZone }).resolvedOptions().timeZone).toBe(
        v.timeZone,
      );
  });
});
