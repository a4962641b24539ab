// One export run of the warehouse bench, in its own process so its peak RSS is its own (see warehouse.mjs).
// argv: <base url> <format ndjson|parquet> <out> [state file] [top] [page size]
import { createWriteStream } from "node:fs";
import { Writable } from "node:stream";
import { biFeed, odata } from "../src/bi/index.ts";
import { runIncrementalToFile } from "../src/cli/incremental-file.ts";
import { progressReporter } from "../src/cli/progress.ts";

const [baseUrl, format, out, state, top, pageSize = "5000"] = process.argv.slice(2) as [
  string,
  "ndjson" | "parquet",
  string,
  string?,
  string?,
  string?,
];
// The mock's demo client, as `entrada-bi-export --client-id … --client-secret …` would use it.
const feed = biFeed({
  baseUrl,
  clientId: "entrada-demo",
  clientSecret: "demo-secret",
  maxPageSize: Number(pageSize),
});
let query = odata("Tickets").count();
if (top && top !== "-") query = query.top(Number(top));
const progress = progressReporter(process.stderr, false);
const started = performance.now();
let rows = 0;
const onProgress = (p: { rows: number; pages: number; bytes: number; total: number | undefined }) => {
  rows = p.rows;
  progress.update(p);
};
if (state && state !== "-") {
  await runIncrementalToFile({
    feed,
    query: query as never,
    out,
    statePath: state,
    gzip: false,
    options: { format, onProgress },
  });
} else {
  await feed.export(query, Writable.toWeb(createWriteStream(out)) as WritableStream<Uint8Array>, {
    format,
    onProgress,
  });
}
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `${JSON.stringify({ rows, seconds, rowsPerSecond: Math.round(rows / seconds), peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`,
);
