/**
 * The BI assistant's three questions against the mock's large history, the way a user runs it: `entrada-mock
 * --history-orders <n>` in its own process (it indexes the history and draws the aggregation columns at startup),
 * the assistant it mounts at /bi/mcp, one stateless JSON-RPC `tools/call` per question over real HTTP (as any MCP
 * client sends it; the official client is the tests') with a demo client's token.
 *
 *   pnpm --filter @entrada/bi-assistant bench [-- --orders 550000 --runs 5]
 *
 * Baseline, measured in the same run: what answering by reading the dataset costs — a `$count` whose `$filter` no
 * index answers, so the feed draws every ticket row once (the least an assistant without aggregation on the feed
 * would need). Figures: the first answer, the median and worst of the next runs, the median as a ratio to that scan;
 * the mock process's resident memory (VmRSS) and its peak (VmHWM) from /proc.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "--"),
  options: { orders: { type: "string", default: "550000" }, runs: { type: "string", default: "5" } },
});
const orders = Number(values.orders);
const runs = Number(values.runs);
const ms = (t: number) => `${t.toFixed(0)} ms`;
const time = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await f();
  return [value, performance.now() - started];
};

const cli = join(
  dirname(createRequire(import.meta.url).resolve("@entrada/mock-server/package.json")),
  "src/node/cli.ts",
);
const child = spawn(
  process.execPath,
  [
    "--conditions=source",
    "--experimental-transform-types",
    "--disable-warning=ExperimentalWarning",
    cli,
    "--port",
    "0",
    "--history-orders",
    String(orders),
    "--rate-limit",
    "off",
    "--no-webhooks",
    "--no-docs",
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const memory = () => {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return `RSS ${(kb("VmRSS") / 1024).toFixed(0)} MB, peak ${(kb("VmHWM") / 1024).toFixed(0)} MB`;
};

try {
  // The banner comes once the history is indexed and its columns drawn.
  const banner: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`entrada-mock exited (${code})`)));
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      banner.push(line);
      if (line.includes("Ctrl-C")) resolve(/Entrada mock server\s+(\S+)/.exec(banner.join("\n"))?.[1] ?? "");
    });
  });
  const startup = banner.filter((l) => /BI feed history|aggregation columns/.test(l)).map((l) => l.trim());
  const tokenResponse = await fetch(`${url}/connect/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials&scope=Shop",
  });
  const token = ((await tokenResponse.json()) as { access_token: string }).access_token;
  const feed = (path: string) =>
    fetch(`${url}/bi/v1/odata${path}`, { headers: { authorization: `Bearer ${token}` } });

  // Counts as Power BI and Excel ask them: unfiltered, then filtered on the columns a question filters by.
  const [count, unfilteredMs] = await time(async () => Number(await (await feed("/Tickets/$count")).text()));
  const someEvent = (await (await feed("/Tickets?$top=1&$select=EventId")).json()) as {
    value: { EventId: string }[];
  };
  const eventId = someEvent.value[0]?.EventId ?? "";
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const counts: [string, string][] = [
    ["event", `EventId eq '${eventId}'`],
    ["status", "Status eq 'used'"],
    ["dates", `IssuedAt ge ${monthAgo}T00:00:00Z`],
    [
      "event, status and dates",
      `EventId eq '${eventId}' and Status ne 'cancelled' and IssuedAt ge ${monthAgo}T00:00:00Z`,
    ],
  ];
  // Baseline: a $count whose filter reads a column too varied to keep (holder names), so the feed draws every row:
  // what answering by reading the dataset would cost at the least.
  const [scanned, scanMs] = await time(async () =>
    Number(
      await (await feed(`/Tickets/$count?$filter=${encodeURIComponent("contains(HolderName,'zz')")}`)).text(),
    ),
  );
  /** The first run, then the median and worst of `runs` more, and the median as a ratio to the scan. */
  const report = async (label: string, run: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const [, t] = await time(run);
      times.push(t);
    }
    const [first, ...rest] = times as [number, ...number[]];
    const sorted = [...rest].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? first;
    const worst = sorted.at(-1) ?? first;
    console.log(
      `${label.padEnd(34)}| ${ms(first).padEnd(9)}| ${ms(median).padEnd(15)}| ${ms(worst).padEnd(14)}| ${(median / scanMs).toFixed(3)}`,
    );
  };

  let id = 0;
  const callTool = async (name: string, args: Record<string, unknown>) => {
    const response = await fetch(`${url}/bi/mcp`, {
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
  // By name, as an organiser asks: the latest event already held (for the gates) and the next one (on sale now).
  const found = (await callTool("find_events", {})) as unknown as {
    structuredContent: { events: { eventName: string; startsAt: string }[] };
  };
  const events = found.structuredContent.events;
  const held = events.filter((e) => Date.parse(e.startsAt) < Date.now()).at(-1)?.eventName ?? "";
  const onSale = events.find((e) => Date.parse(e.startsAt) > Date.now())?.eventName ?? "";
  const questions: [string, string, Record<string, unknown>][] = [
    ["tickets sold per event last week", "sales_per_event_and_day", {}],
    ["… for one event, by name", "sales_per_event_and_day", { event: onSale }],
    ["no-show rate per event", "no_show_rate_per_event", {}],
    ["peak entry hour per gate, by name", "peak_entry_times_per_gate", { event: held }],
    ["find events by venue", "find_events", { venue: "Hallenstadion" }],
  ];
  console.log(
    `\nBI assistant bench: entrada-mock --history-orders ${orders}: ${count.toLocaleString("en-GB")} ticket rows`,
  );
  for (const line of startup) console.log(`  ${line}`);
  console.log(`  mock process after startup: ${memory()}`);
  console.log(
    `baseline: a $count that draws every ticket row (${scanned.toLocaleString("en-GB")} match): ${ms(scanMs)}\n`,
  );
  console.log(`unfiltered $count: ${ms(unfilteredMs)}`);
  console.log(
    "filtered $count on                | first    | median of next | worst of next | median / scan",
  );
  console.log(
    "----------------------------------|----------|----------------|---------------|--------------",
  );
  for (const [label, filter] of counts)
    await report(label, () =>
      feed(`/Tickets/$count?$filter=${encodeURIComponent(filter)}`).then((r) => r.text()),
    );
  console.log("");
  console.log(
    "question                          | first    | median of next | worst of next | median / scan",
  );
  console.log(
    "----------------------------------|----------|----------------|---------------|--------------",
  );
  for (const [label, name, args] of questions) await report(label, () => callTool(name, args));
  console.log(`\nmock process after the questions: ${memory()}`);
} finally {
  child.kill("SIGTERM");
}
