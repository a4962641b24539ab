import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type MockServer, startMockServer } from "@entrada/mock-server/node";
import { parquetReadObjects } from "hyparquet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { biFeed, odata } from "../../src/bi/index.ts";
import { runIncrementalToFile } from "../../src/cli/incremental-file.ts";
import { createClient } from "../../src/index.ts";

const CLI = fileURLToPath(new URL("../../src/cli/bi-export.ts", import.meta.url));
const ENV = { ENTRADA_CLIENT_ID: "entrada-demo", ENTRADA_CLIENT_SECRET: "demo-secret" };

function run(args: string[], onStderr?: (text: string, child: ReturnType<typeof spawn>) => void) {
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? "", ...ENV },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
      onStderr?.(stderr, child);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

async function parquetIds(path: string, key = "TicketId"): Promise<string[]> {
  const b = readFileSync(path);
  const rows = await parquetReadObjects({
    file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer,
  });
  return rows.map((r) => String(r[key]));
}

describe("entrada-bi-export --state / --duckdb against the mock server", () => {
  let mock: MockServer;
  let dir: string;
  let total: number;
  const base = () => ["--base-url", mock.url, "--quiet"];

  beforeAll(async () => {
    mock = await startMockServer({ port: 0, webhooks: false });
    dir = mkdtempSync(join(tmpdir(), "bi-export-warehouse-"));
    const client = createClient({
      baseUrl: mock.url,
      clientId: "entrada-demo",
      clientSecret: "demo-secret",
      scope: "Shop",
    });
    total = 0;
    for await (const _ of biFeed(client.fetch, { baseUrl: mock.url }).rows(
      odata("Tickets").select("TicketId"),
    ))
      total++;
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("an interrupted incremental run leaves no file and no watermark; the next run exports every row once", async () => {
    const state = join(dir, "tickets.state.json");
    const args = (out: string, pageSize = 1000) => [
      ...base(),
      ...[
        "--dataset",
        "Tickets",
        "--format",
        "parquet",
        "--out",
        out,
        "--state",
        state,
        "--page-size",
        String(pageSize),
      ],
    ];
    const first = join(dir, "t1.parquet");
    // Ctrl-C as soon as the first page is in (progress lines need a non-quiet run).
    const stopped = await run(
      args(first, 50).filter((a) => a !== "--quiet"),
      (text, child) => {
        if (text.includes("progress:") && !child.killed) child.kill("SIGINT");
      },
    );
    expect(stopped.code).toBe(130);
    expect(existsSync(first)).toBe(false);
    expect(existsSync(`${first}.partial`)).toBe(false);
    expect(existsSync(state)).toBe(false);

    const second = join(dir, "t2.parquet");
    expect((await run(args(second))).code).toBe(0);
    const ids = await parquetIds(second);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    const saved = JSON.parse(readFileSync(state, "utf8"));
    expect(saved).toMatchObject({ version: 1, dataset: "Tickets", rows: total, runs: 1, pending: null });
    expect(saved.feed).toBe(`${mock.url}/bi/v1/odata`);

    const third = join(dir, "t3.parquet");
    expect((await run(args(third))).code).toBe(0);
    expect(await parquetIds(third)).toEqual([]);

    // A state file from another dataset is refused before any request, with a message that says why.
    const foreign = await run([
      ...base(),
      "--dataset",
      "Orders",
      "--format",
      "ndjson",
      "--out",
      join(dir, "o.ndjson"),
      "--state",
      state,
    ]);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain(
      "The state file belongs to the Tickets dataset, not Orders: use a state file per dataset",
    );
  }, 60_000);

  it("a crash between renaming the file and committing the watermark is rolled forward, not repeated", async () => {
    const state = join(dir, "crash.state.json");
    const out = join(dir, "crash-1.ndjson");
    const client = createClient({
      baseUrl: mock.url,
      clientId: "entrada-demo",
      clientSecret: "demo-secret",
      scope: "Shop",
    });
    const feed = biFeed(client.fetch, { baseUrl: mock.url, maxPageSize: 1000 });
    await expect(
      runIncrementalToFile({
        feed,
        query: odata("Tickets") as never,
        out,
        statePath: state,
        gzip: false,
        options: { format: "ndjson" },
        step: (phase) => {
          if (phase === "renamed") throw new Error("power cut");
        },
      }),
    ).rejects.toThrow("power cut");
    expect(readFileSync(out, "utf8").trimEnd().split("\n")).toHaveLength(total);
    expect(JSON.parse(readFileSync(state, "utf8")).pending).toMatchObject({ out, rows: total });

    const next = join(dir, "crash-2.ndjson");
    const r = await run([
      ...base().filter((a) => a !== "--quiet"),
      "--dataset",
      "Tickets",
      "--format",
      "ndjson",
      "--out",
      next,
      "--state",
      state,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("finished the interrupted previous run first");
    expect(readFileSync(next, "utf8")).toBe(""); // nothing exported twice
    expect(JSON.parse(readFileSync(state, "utf8"))).toMatchObject({ rows: total, runs: 2, pending: null });
  }, 60_000);

  it("a run killed while writing leaves its .partial only until the next run, which removes it whatever its --out", async () => {
    const state = join(dir, "killed.state.json");
    const args = (out: string, pageSize: number) => [
      ...base().filter((a) => a !== "--quiet"),
      ...["--dataset", "Tickets", "--format", "parquet", "--out", out, "--state", state],
      ...["--page-size", String(pageSize), "--row-group-size", "100"],
    ];
    const first = join(dir, "killed-1.parquet");
    // SIGKILL: no handler runs, so the half-written file stays behind (a power cut, an OOM kill).
    const killed = await run(args(first, 50), (text, child) => {
      if (text.includes("progress:") && !child.killed) child.kill("SIGKILL");
    });
    expect(killed.code).toBe(null);
    expect(existsSync(`${first}.partial`)).toBe(true);
    expect(JSON.parse(readFileSync(state, "utf8"))).toMatchObject({
      watermark: null,
      writing: { partial: `${first}.partial` },
    });

    const second = join(dir, "killed-2.parquet");
    const next = await run(args(second, 1000));
    expect(next.code).toBe(0);
    expect(next.stderr).toContain(`removed ${first}.partial, left half-written by a stopped run`);
    expect(existsSync(`${first}.partial`)).toBe(false);
    const ids = await parquetIds(second);
    expect(ids).toHaveLength(total);
    expect(JSON.parse(readFileSync(state, "utf8"))).toMatchObject({ rows: total, runs: 1, writing: null });
  }, 60_000);

  it("refuses to touch the file of a run that is still writing with the same state file", async () => {
    const state = join(dir, "busy.state.json");
    const partial = join(dir, "busy.parquet.partial");
    writeFileSync(partial, "half");
    const { hostname } = await import("node:os");
    writeFileSync(
      state,
      JSON.stringify({
        version: 1,
        feed: `${mock.url}/bi/v1/odata`,
        dataset: "Tickets",
        filter: null,
        watermark: null,
        rows: 0,
        runs: 0,
        updatedAt: null,
        pending: null,
        // This test's own process: alive.
        writing: { partial, pid: process.pid, host: hostname(), startedAt: "2026-11-26T08:00:00.000Z" },
      }),
    );
    const r = await run([
      ...base(),
      ...[
        "--dataset",
        "Tickets",
        "--format",
        "parquet",
        "--out",
        join(dir, "busy-2.parquet"),
        "--state",
        state,
      ],
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Another run (pid ${process.pid}) has been writing ${partial}`);
    expect(readFileSync(partial, "utf8")).toBe("half");
  }, 60_000);

  it("--duckdb loads with upsert by key, incrementally", async () => {
    const database = join(dir, "entrada.duckdb");
    const first = await run([
      ...base().filter((a) => a !== "--quiet"),
      "--dataset",
      "Tickets",
      "--duckdb",
      database,
    ]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`upserted ${total} rows; Tickets holds ${total}`);
    const again = await run([
      ...base().filter((a) => a !== "--quiet"),
      "--dataset",
      "Tickets",
      "--duckdb",
      database,
    ]);
    expect(again.stderr).toContain(`upserted 0 rows; Tickets holds ${total}`);
    const bad = await run([...base(), "--dataset", "Tickets", "--duckdb", database, "--out", "x.parquet"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--duckdb loads into the database");
  }, 60_000);
});
