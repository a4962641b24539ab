import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningBiAssistant, startBiAssistant } from "../src/index.ts";
import { connect, type Feed, startFeed, type ToolResult } from "./helpers.ts";

let feed: Feed;
let capped: RunningBiAssistant;
let slow: RunningBiAssistant;
let token: string;
const clients: Client[] = [];

/** Days with orders: hundreds of groups, more than a page of 50 and more than the caps below. */
const DAILY = {
  dataset: "Orders",
  timeBucket: { property: "CreatedAt", unit: "day" },
  aggregates: [{ method: "count", as: "Orders" }],
};

beforeAll(async () => {
  feed = await startFeed();
  token = await feed.token("Shop");
  capped = await startBiAssistant({ apiUrl: feed.mock.url, port: 0, maxRows: 120 });
  // A clock that moves 1 s per reading: the 0.5 s time limit runs out after the first page.
  let t = 0;
  slow = await startBiAssistant({
    apiUrl: feed.mock.url,
    port: 0,
    timeLimitMs: 500,
    pageSize: 100,
    now: () => (t += 1000),
  });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await capped?.close();
  await slow?.close();
  await feed?.mock.close();
});

async function ask(
  assistant: RunningBiAssistant,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const client = await connect(`${assistant.url}/mcp`, token);
  clients.push(client);
  const result = (await client.callTool({ name: "aggregate", arguments: args })) as ToolResult;
  expect(result.isError).toBe(false);
  expect(result.content[0]?.text).toMatch(/Note: Partial answer/);
  return result.structuredContent as Record<string, unknown>;
}

it("an answer stops at the row cap with a clear note and the continuation of the rest", async () => {
  const answer = await ask(capped, DAILY);
  expect((answer.rows as unknown[]).length).toBe(120);
  expect(answer.note).toMatch(/stops at 120 rows/);
  expect(answer.continuation).toMatch(/\$skiptoken=/);
  // The continuation is the feed's next page: re-run with the token, it holds the groups after the 120th.
  const rest = await feed.odata<{ value: { Day: string }[] }>(answer.continuation as string, token);
  const last = (answer.rows as { Day: string }[]).at(-1) as { Day: string };
  expect((rest.value[0] as { Day: string }).Day > last.Day).toBe(true);
});

it("an answer stops at the time limit with a clear note", async () => {
  const answer = await ask(slow, DAILY);
  expect(answer.note).toMatch(/time limit/);
  expect((answer.requests as string[]).length).toBe(1);
  expect(answer.continuation).toMatch(/\$skiptoken=/);
});
