/**
 * The BI assistant's three questions against the mock's large history, over real HTTP (one stateless JSON-RPC
 * `tools/call` per question, as any MCP client sends it; the official client is the tests') with a demo client's
 * token (the mock mounts the assistant at /bi/mcp).
 *
 *   pnpm --filter @entrada/bi-assistant bench [-- --orders 550000 --runs 5]
 *
 * Baseline, measured in the same run: what answering by reading the dataset costs — a `$count` whose `$filter` no
 * index answers, so the feed draws every ticket row once (the scan an assistant without aggregation on the feed
 * would at least need). Figures: the first answer (which draws the aggregation columns), then the median and worst of
 * the following runs, each as a ratio to that scan; memory as the process's RSS and its peak.
 */
import { parseArgs } from "node:util";
import { startMockServer } from "@entrada/mock-server/node";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "--"),
  options: { orders: { type: "string", default: "550000" }, runs: { type: "string", default: "5" } },
});
const orders = Number(values.orders);
const runs = Number(values.runs);
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;
const ms = (t: number) => `${t.toFixed(0)} ms`;
const time = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await f();
  return [value, performance.now() - started];
};

const mock = await startMockServer({
  port: 0,
  webhooks: false,
  rateLimit: false,
  docs: false,
  seed: { bi: { history: { orders } } },
});
try {
  const tokenResponse = await fetch(`${mock.url}/connect/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials&scope=Shop",
  });
  const token = ((await tokenResponse.json()) as { access_token: string }).access_token;
  const feed = (path: string) =>
    fetch(`${mock.url}/bi/v1/odata${path}`, { headers: { authorization: `Bearer ${token}` } });

  const [count, indexMs] = await time(async () => Number(await (await feed("/Tickets/$count")).text()));
  const [scanned, scanMs] = await time(async () =>
    Number(await (await feed(`/Tickets/$count?$filter=${encodeURIComponent("Status eq 'used'")}`)).text()),
  );
  const last = (await (
    await feed(`/Tickets?$filter=${encodeURIComponent("Source eq 'shop'")}&$orderby=IssuedAt desc&$top=1`)
  ).json()) as { value: { IssuedAt: string }[] };
  const to = new Date(Date.parse(last.value[0]?.IssuedAt ?? "") + 86_400_000).toISOString().slice(0, 10);
  const from = new Date(Date.parse(to) - 7 * 86_400_000).toISOString().slice(0, 10);

  let id = 0;
  const callTool = async (name: string, args: Record<string, unknown>) => {
    const response = await fetch(`${mock.url}/bi/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: ++id,
        method: "tools/call",
        params: { name, arguments: args },
      }),
    });
    const body = (await response.json()) as { result?: { isError?: boolean; content: unknown } };
    if (response.status !== 200 || !body.result || body.result.isError)
      throw new Error(`${name}: ${response.status} ${JSON.stringify(body)}`);
    return body.result;
  };
  const questions: [string, string, Record<string, unknown>][] = [
    ["tickets sold per event last week", "sales_per_event_and_day", { from, to }],
    ["no-show rate per event", "no_show_rate_per_event", {}],
    ["peak entry hour per gate", "peak_entry_times_per_gate", {}],
  ];
  console.log(
    `\nBI assistant bench: ${orders.toLocaleString("en-GB")} orders, ${count.toLocaleString("en-GB")} ticket rows (history indexed on the first request in ${ms(indexMs)})`,
  );
  console.log(
    `baseline: a $count that draws every ticket row (${scanned.toLocaleString("en-GB")} match) ${ms(scanMs)}\n`,
  );
  console.log(
    "question                          | first (draws columns) | median of next | worst of next | median / scan",
  );
  console.log(
    "----------------------------------|-----------------------|----------------|---------------|--------------",
  );
  for (const [label, name, args] of questions) {
    const times: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const [, t] = await time(() => callTool(name, args));
      times.push(t);
    }
    const [first, ...rest] = times as [number, ...number[]];
    const sorted = [...rest].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? first;
    const worst = sorted.at(-1) ?? first;
    console.log(
      `${label.padEnd(34)}| ${ms(first).padEnd(22)}| ${ms(median).padEnd(15)}| ${ms(worst).padEnd(14)}| ${(median / scanMs).toFixed(3)}`,
    );
  }
  const usage = process.memoryUsage();
  console.log(
    `\nmemory after: RSS ${mb(usage.rss)}, heap ${mb(usage.heapUsed)}; peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`,
  );
} finally {
  await mock.close();
}
