import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBiAssistant, startBiAssistant } from "../src/index.ts";
import { connect, type Feed, startFeed, type ToolResult } from "./helpers.ts";

let feed: Feed;
let assistant: RunningBiAssistant;
let token: string;
let client: Client;
/** The mock's clock (and so the assistant's today): its seeded history runs up to this day. */
const NOW = Date.parse("2026-11-28T13:00:00Z");

type Page = { value: Record<string, unknown>[]; "@odata.count"?: number; "@odata.nextLink"?: string };

beforeAll(async () => {
  feed = await startFeed({ now: () => NOW });
  token = await feed.token("Shop");
  assistant = await startBiAssistant({ apiUrl: feed.mock.url, port: 0, today: () => NOW });
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
      "find_events",
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
      ["no_show_rate_per_event", { eventName: "x" }, /`eventName` is not an argument/],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result.content[0]?.text).toMatch(message);
    }
    await expect(client.callTool({ name: "sales_per_day", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});
