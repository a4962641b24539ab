import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, bearer, read, startApi } from "../helpers.ts";

type Rows = { value: Record<string, unknown>[]; "@odata.nextLink"?: string; "@odata.count"?: number };

let api: Api;
let token: string;

beforeAll(async () => {
  // The default seeded history (1,500 orders), with response validation on.
  api = await startApi();
  token = await api.token("Shop");
});
afterAll(() => api.close());

async function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return api.fetch(path, { headers: bearer(token, headers) });
}

async function all<T = Record<string, unknown>>(path: string): Promise<T[]> {
  const rows: T[] = [];
  let next: string | undefined = path;
  while (next) {
    const response = await get(next, { prefer: "odata.maxpagesize=5000" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Rows;
    rows.push(...(body.value as T[]));
    next = body["@odata.nextLink"]?.slice(api.url.length);
  }
  return rows;
}

const apply = (set: string, text: string, more = "") =>
  `/bi/v1/odata/${set}?$apply=${encodeURIComponent(text)}${more}`;

describe("BI feed: $apply (Data Aggregation)", () => {
  it("groupby with $count and sum equals counting and summing the rows", async () => {
    const tickets = await all<{ EventId: string; PriceAmount: number | null; Status: string }>(
      "/bi/v1/odata/Tickets?$select=EventId,PriceAmount,Status",
    );
    const expected = new Map<string, { n: number; sum: number }>();
    for (const t of tickets) {
      if (t.Status === "cancelled") continue;
      const e = expected.get(t.EventId) ?? { n: 0, sum: 0 };
      e.n++;
      e.sum += t.PriceAmount ?? 0;
      expected.set(t.EventId, e);
    }
    const response = await get(
      apply(
        "Tickets",
        "filter(Status ne 'cancelled')/groupby((EventId),aggregate($count as Tickets,PriceAmount with sum as Revenue))",
      ),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as Rows & { "@odata.context": string };
    expect(body["@odata.context"]).toMatch(/\$metadata#Tickets\(EventId,Tickets,Revenue\)$/);
    expect(body.value.length).toBe(expected.size);
    for (const row of body.value) {
      const e = expected.get(row.EventId as string);
      expect(row.Tickets).toBe(e?.n);
      expect(row.Revenue).toBeCloseTo(e?.sum ?? Number.NaN, 2);
    }
    // Ordered by the grouping value.
    const ids = body.value.map((r) => r.EventId as string);
    expect(ids).toEqual([...ids].sort());
  });

  it("time buckets with compute(hour(…)), $orderby and $top on the aggregated rows", async () => {
    const scans = await all<{ GateId: string; ScannedAt: string; Result: string }>(
      "/bi/v1/odata/Entrances?$select=GateId,ScannedAt,Result&$filter=Result eq 'admitted'",
    );
    const counts = new Map<string, number>();
    for (const s of scans) {
      const key = `${s.GateId}|${new Date(s.ScannedAt).getUTCHours()}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const rows = await all<{ GateId: string; Hour: number; Entries: number }>(
      apply(
        "Entrances",
        "filter(Result eq 'admitted')/compute(hour(ScannedAt) as Hour)/groupby((GateId,Hour),aggregate($count as Entries))",
        "&$orderby=Entries desc",
      ),
    );
    expect(rows.length).toBe(counts.size);
    for (const r of rows) expect(r.Entries).toBe(counts.get(`${r.GateId}|${r.Hour}`));
    expect(rows.map((r) => r.Entries)).toEqual([...rows.map((r) => r.Entries)].sort((a, b) => b - a));
    const top = (await (
      await get(apply("Entrances", "groupby((GateId),aggregate($count as N))", "&$top=1&$orderby=N desc"))
    ).json()) as Rows;
    expect(top.value).toHaveLength(1);
  });

  it("aggregate without groupby, average/min/max/countdistinct, date buckets and filter after grouping", async () => {
    const whole = (await (
      await get(
        apply(
          "Orders",
          "aggregate($count as Orders,TotalAmount with average as Average,TotalAmount with max as Largest,CreatedAt with min as First,Culture with countdistinct as Cultures)",
        ),
      )
    ).json()) as Rows;
    const orders = await all<{ TotalAmount: number; CreatedAt: string; Culture: string }>(
      "/bi/v1/odata/Orders?$select=TotalAmount,CreatedAt,Culture",
    );
    const row = whole.value[0] as Record<string, unknown>;
    expect(row.Orders).toBe(orders.length);
    expect(row.Largest).toBe(Math.max(...orders.map((o) => o.TotalAmount)));
    expect(row.Average).toBeCloseTo(orders.reduce((s, o) => s + o.TotalAmount, 0) / orders.length, 3);
    expect(row.First).toBe(orders.map((o) => o.CreatedAt).sort()[0]);
    expect(row.Cultures).toBe(new Set(orders.map((o) => o.Culture)).size);
    const days = await all<{ Day: string; N: number }>(
      apply("Orders", "compute(date(CreatedAt) as Day)/groupby((Day),aggregate($count as N))/filter(N ge 3)"),
    );
    expect(days.length).toBeGreaterThan(0);
    for (const d of days) {
      expect(d.Day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(d.N).toBe(orders.filter((o) => o.CreatedAt.startsWith(d.Day)).length);
      expect(d.N).toBeGreaterThanOrEqual(3);
    }
  });

  it("pages the aggregated rows with a skiptoken bound to the query, and counts them", async () => {
    const path = apply(
      "Orders",
      "compute(date(CreatedAt) as Day)/groupby((Day),aggregate($count as N))",
      "&$count=true",
    );
    const first = await get(path, { prefer: "odata.maxpagesize=10" });
    const body = (await first.json()) as Rows;
    expect(body.value).toHaveLength(10);
    const next = body["@odata.nextLink"] as string;
    expect(next).toContain("$skiptoken=");
    const second = (await (
      await get(next.slice(api.url.length), { prefer: "odata.maxpagesize=10" })
    ).json()) as Rows;
    expect((second.value[0]?.Day as string) > (body.value[9]?.Day as string)).toBe(true);
    const paged = await all(path);
    expect(paged.length).toBe(body["@odata.count"]);
    const changed = next.replace("$count=true", "$count=true&$top=3");
    expect(changed).not.toBe(next);
    expect((await get(changed.slice(api.url.length))).status).toBe(400);
  });

  it("a leading filter tested on the history's columns counts what $filter counts (nulls, dates, ne, the rest)", async () => {
    const filters = [
      "FirstAdmittedAt eq null and Status ne 'cancelled'",
      "FirstAdmittedAt ne null and IssuedAt lt 2026-06-01 and PriceAmount ge 29",
      "2026-03-01T00:00:00Z le IssuedAt and contains(EventName, 'Jazz')",
      "Vendor eq 'pretix' or Vendor eq 'eventbrite'",
      "EventName eq 'No such event' and Status eq 'used'",
      "Status eq 'used' and PriceAmount gt 100.5",
    ];
    for (const filter of filters) {
      const counted = await get(`/bi/v1/odata/Tickets/$count?$filter=${encodeURIComponent(filter)}`);
      const expected = Number(await counted.text());
      const aggregated = (await (
        await get(apply("Tickets", `filter(${filter})/aggregate($count as N)`))
      ).json()) as Rows;
      expect(aggregated.value[0]?.N, filter).toBe(expected);
    }
  });

  it("bad $apply is a 400 OData error naming the part; other transformations of the extension are 501", async () => {
    const cases: [string, string, RegExp][] = [
      ["groupby((EvntId))", "UnknownProperty", /EvntId/],
      ["groupby((EventId),aggregate(PriceAmount with median as M))", "BadRequest", /median/],
      ["groupby((EventId),aggregate(EventName with sum as S))", "BadRequest", /sum needs a number/],
      ["aggregate(count as N)", "BadRequest", /count as N/],
      ["pivot(EventId)", "BadRequest", /pivot/],
      ["filter(Status eq 'used')", "BadRequest", /groupby/],
      ["groupby((EventId))/groupby((EventId))", "BadRequest", /filter/],
      ["filter(Status eq)/groupby((EventId))", "InvalidFilter", /position/],
    ];
    for (const [text, code, message] of cases) {
      const response = await get(apply("Tickets", text));
      expect(response.status, text).toBe(400);
      const body = await read.odataError(response);
      expect(body.error.code, text).toBe(code);
      expect(body.error.message, text).toMatch(message);
      expect(body.error.target).toBe("$apply");
    }
    const topcount = await get(apply("Tickets", "topcount(5,PriceAmount)"));
    expect(topcount.status).toBe(501);
    // Beside $apply, the collection's options apply; $expand stays 501 and an unknown $ option 400.
    expect((await get(apply("Tickets", "groupby((Status))", "&$expand=x"))).status).toBe(501);
    expect((await get(apply("Tickets", "groupby((Status))", "&$bogus=1"))).status).toBe(400);
    const german = await get(apply("Tickets", "pivot(EventId)"), { "accept-language": "de-CH" });
    expect((await read.odataError(german)).error.message).toMatch(/Unbekannte Transformation/);
  });
});
