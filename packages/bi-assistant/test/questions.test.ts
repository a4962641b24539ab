import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBiAssistant, startBiAssistant } from "../src/index.ts";
import { connect, type Feed, startFeed, type ToolResult } from "./helpers.ts";

let feed: Feed;
let assistant: RunningBiAssistant;
let token: string;
let client: Client;
/** The assistant's clock: a few days after the history's last sale, so "last week" holds sales. */
let now = Date.now();

const DAY = 86_400_000;
type Page = { value: Record<string, unknown>[]; "@odata.count"?: number; "@odata.nextLink"?: string };

beforeAll(async () => {
  feed = await startFeed();
  token = await feed.token("Shop");
  const last = await feed.odata<Page>(
    `/bi/v1/odata/Tickets?$filter=${encodeURIComponent("Source eq 'shop'")}&$orderby=IssuedAt desc&$top=1`,
    token,
  );
  now = Math.floor(Date.parse(last.value[0]?.IssuedAt as string) / DAY) * DAY + 3 * DAY;
  assistant = await startBiAssistant({ apiUrl: feed.mock.url, port: 0, now: () => now });
  client = await connect(`${assistant.url}/mcp`, token);
});
afterAll(async () => {
  await client?.close();
  await assistant?.close();
  await feed?.mock.close();
});

async function call(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** `@odata.count` of a filter, asked of the feed directly. */
async function count(set: string, filter: string): Promise<number> {
  const page = await feed.odata<Page>(
    `/bi/v1/odata/${set}?$filter=${encodeURIComponent(filter)}&$count=true&$top=0`,
    token,
  );
  return page["@odata.count"] as number;
}

describe("BI assistant with the official MCP client and a demo client's token", () => {
  it("lists its tools, each with input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "list_datasets",
      "describe_dataset",
      "query_rows",
      "aggregate",
      "sales_per_event_and_day",
      "no_show_rate_per_event",
      "peak_entry_times_per_gate",
    ]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
      expect(t.annotations?.readOnlyHint).toBe(true);
    }
  });

  it("“tickets sold per event last week” equals direct OData counts, and its request re-runs", async () => {
    const result = await call("sales_per_event_and_day");
    expect(result.isError).toBe(false);
    const answer = result.structuredContent as {
      from: string;
      to: string;
      events: { eventId: string; tickets: number; revenue: { currency: string; amount: number }[] }[];
      request: string;
    };
    expect(answer.to).toBe(new Date(Math.floor(now / DAY) * DAY).toISOString().slice(0, 10));
    expect(Date.parse(answer.to) - Date.parse(answer.from)).toBe(7 * DAY);
    expect(answer.events.length).toBeGreaterThan(0);
    const period = `Source eq 'shop' and Status ne 'cancelled' and IssuedAt ge ${answer.from}T00:00:00Z and IssuedAt lt ${answer.to}T00:00:00Z`;
    let total = 0;
    for (const e of answer.events) {
      expect(e.tickets).toBe(await count("Tickets", `${period} and EventId eq '${e.eventId}'`));
      total += e.tickets;
    }
    expect(total).toBe(await count("Tickets", period));
    // Revenue per currency against the rows themselves.
    const rows = await feed.odata<Page>(
      `/bi/v1/odata/Tickets?$filter=${encodeURIComponent(period)}&$select=EventId,PriceAmount,Currency`,
      token,
    );
    const event = answer.events[0] as (typeof answer.events)[number];
    for (const r of event.revenue) {
      const sum = rows.value
        .filter((t) => t.EventId === event.eventId && t.Currency === r.currency)
        .reduce((s, t) => s + (t.PriceAmount as number), 0);
      expect(r.amount).toBeCloseTo(sum, 2);
    }
    // The answer's request, re-run by hand, gives the same groups.
    const rerun = await feed.odata<Page>(answer.request, token);
    expect(rerun.value.reduce((n, r) => n + (r.Tickets as number), 0)).toBe(total);
    expect(result.content[0]?.text).toContain(answer.request);
  });

  it("“no-show rate per event” equals direct OData counts", async () => {
    const result = await call("no_show_rate_per_event");
    expect(result.isError).toBe(false);
    const { events } = result.structuredContent as {
      events: { eventId: string; tickets: number; admitted: number; noShows: number; noShowRate: number }[];
    };
    expect(events.length).toBeGreaterThanOrEqual(12);
    for (const e of events.slice(0, 4)) {
      const scope = `Status ne 'cancelled' and EventId eq '${e.eventId}'`;
      expect(e.tickets).toBe(await count("Tickets", scope));
      expect(e.admitted).toBe(await count("Tickets", `Status eq 'used' and EventId eq '${e.eventId}'`));
      expect(e.noShows).toBe(e.tickets - e.admitted);
      expect(e.noShowRate).toBeCloseTo(e.noShows / e.tickets, 4);
    }
    const rates = events.map((e) => e.noShowRate);
    expect(rates).toEqual([...rates].sort((a, b) => b - a));
  });

  it("“peak entry hour per gate” equals direct OData counts per hour", async () => {
    const result = await call("peak_entry_times_per_gate");
    expect(result.isError).toBe(false);
    const { gates } = result.structuredContent as {
      gates: {
        gateId: string;
        entries: number;
        peakHour: number;
        peakEntries: number;
        hours: { hour: number; entries: number }[];
      }[];
    };
    expect(gates.length).toBeGreaterThanOrEqual(2);
    for (const g of gates) {
      const base = `Direction eq 'entry' and Result eq 'admitted' and GateId eq '${g.gateId}'`;
      expect(g.entries).toBe(await count("Entrances", base));
      expect(g.peakEntries).toBe(await count("Entrances", `${base} and hour(ScannedAt) eq ${g.peakHour}`));
      expect(g.peakEntries).toBe(Math.max(...g.hours.map((h) => h.entries)));
      for (const h of g.hours.slice(0, 3))
        expect(h.entries).toBe(await count("Entrances", `${base} and hour(ScannedAt) eq ${h.hour}`));
    }
  });

  it("lists and describes the datasets from $metadata", async () => {
    const list = (await call("list_datasets")).structuredContent as {
      datasets: { name: string; key: string }[];
    };
    expect(list.datasets.map((d) => `${d.name}:${d.key}`)).toEqual([
      "Orders:OrderId",
      "Tickets:TicketId",
      "Payments:PaymentId",
      "Entrances:ScanId",
    ]);
    const described = (await call("describe_dataset", { dataset: "Entrances" })).structuredContent as {
      properties: { name: string; type: string; nullable: boolean; description: string }[];
      request: string;
    };
    expect(described.properties.find((p) => p.name === "ScannedAt")).toMatchObject({
      type: "Edm.DateTimeOffset",
      nullable: false,
    });
    expect(described.request).toBe(`${feed.mock.url}/bi/v1/odata/$metadata?$format=json`);
  });

  it("queries rows page by page with a continuation, and aggregates with time buckets", async () => {
    const first = (
      await call("query_rows", {
        dataset: "Tickets",
        filter: "Status eq 'used'",
        select: ["TicketId", "EventName"],
        orderBy: ["TicketId"],
        pageSize: 5,
      })
    ).structuredContent as {
      rows: { TicketId: string }[];
      count: number;
      continuation: string;
      request: string;
    };
    expect(first.rows).toHaveLength(5);
    expect(first.count).toBe(await count("Tickets", "Status eq 'used'"));
    const second = (
      await call("query_rows", { dataset: "Tickets", continuation: first.continuation, pageSize: 5 })
    ).structuredContent as { rows: { TicketId: string }[] };
    expect(
      (second.rows[0] as { TicketId: string }).TicketId > (first.rows[4] as { TicketId: string }).TicketId,
    ).toBe(true);

    const monthly = (
      await call("aggregate", {
        dataset: "Orders",
        timeBucket: { property: "CreatedAt", unit: "month" },
        aggregates: [
          { method: "count", as: "Orders" },
          { method: "sum", property: "TotalAmount", as: "Total" },
        ],
        orderBy: ["Orders desc"],
        top: 3,
      })
    ).structuredContent as { rows: { Year: number; Month: number; Orders: number }[]; apply: string };
    expect(monthly.apply).toBe(
      "compute(year(CreatedAt) as Year,month(CreatedAt) as Month)/groupby((Year,Month),aggregate($count as Orders,TotalAmount with sum as Total))",
    );
    expect(monthly.rows).toHaveLength(3);
    const top = monthly.rows[0] as { Year: number; Month: number; Orders: number };
    expect(top.Orders).toBe(
      await count("Orders", `year(CreatedAt) eq ${top.Year} and month(CreatedAt) eq ${top.Month}`),
    );
  });

  it("bad arguments and queries the feed refuses are tool results with isError and a fix-it message", async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["aggregate", { dataset: "Tickets", groupBy: ["EvntId"] }, /`groupBy\/0`.*did you mean `EventId`/],
      ["aggregate", { dataset: "Tikets", groupBy: ["EventId"] }, /`dataset` must be one of `Orders`/],
      [
        "aggregate",
        { dataset: "Tickets", aggregates: [{ method: "sum", property: "EventName" }] },
        /sum needs a number/,
      ],
      [
        "aggregate",
        { dataset: "Tickets", filter: "Status eq", groupBy: ["Status"] },
        /refused the request \(the part: \$apply\).*position/,
      ],
      ["query_rows", { dataset: "Orders", filter: "Totl gt 10" }, /the part: \$filter.*Totl.*TotalAmount/],
      ["query_rows", { dataset: "Orders", pageSize: 0 }, /`pageSize` must be at least 1/],
      [
        "query_rows",
        { dataset: "Orders", continuation: "https://evil.example/steal" },
        /`continuation` must be/,
      ],
      ["sales_per_event_and_day", { from: "2026-13-45" }, /`from` is not a calendar day/],
      ["sales_per_event_and_day", { from: "2026-11-20", to: "2026-11-10" }, /must be before/],
      ["no_show_rate_per_event", { event: "x" }, /`event` is not an argument/],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result.content[0]?.text).toMatch(message);
    }
    await expect(client.callTool({ name: "sales_per_day", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});
