import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { type MockServer, startMockServer } from "@entrada/mock-server/node";
import { parquetMetadata } from "hyparquet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tickets } from "./fake-feed.ts";

const CLI = fileURLToPath(new URL("../../src/cli/bi-export.ts", import.meta.url));
const ROWS = tickets(23);

interface Seen {
  token: { authorization: string | undefined; body: string }[];
  feed: { url: string; authorization: string | undefined; prefer: string; language: string | undefined }[];
}

/**
 * Pages after the first of the `slow` filter wait here until the test lets them go: an export is then
 * mid-way for as long as the test needs (no wall-clock delay).
 */
let slowPages: Promise<void> = Promise.resolve();

/** A fake Entrada: /connect/token (Basic auth) and an OData Tickets feed with absolute skiptoken next links. */
function startServer(seen: Seen): Promise<Server> {
  const readBody = async (req: IncomingMessage) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    return body;
  };
  const server = createServer(async (req, res) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const url = new URL(req.url ?? "/", origin);
    if (req.method === "POST" && url.pathname === "/connect/token") {
      const body = await readBody(req);
      seen.token.push({ authorization: req.headers.authorization, body });
      const expected = `Basic ${Buffer.from("cli-client:s3cr%C3%A9t%3A").toString("base64")}`;
      const form = new URLSearchParams(body);
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { "content-type": "application/json", "www-authenticate": "Basic" });
        return res.end(JSON.stringify({ error: "invalid_client", error_description: "Unknown client" }));
      }
      if (form.get("grant_type") !== "client_credentials" || form.get("scope") !== "Shop") {
        res.writeHead(400, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: "invalid_request" }));
      }
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      return res.end(
        JSON.stringify({ access_token: "tok_cli", token_type: "Bearer", expires_in: 3600, scope: "Shop" }),
      );
    }
    if (req.method === "GET" && url.pathname.startsWith("/bi/v1/odata/")) {
      seen.feed.push({
        url: url.href,
        authorization: req.headers.authorization,
        prefer: String(req.headers.prefer),
        language: req.headers["accept-language"],
      });
      if (req.headers.authorization !== "Bearer tok_cli") {
        res.writeHead(401, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { code: "unauthorized", message: "Bearer token required" } }));
      }
      if (url.pathname !== "/bi/v1/odata/Tickets" || url.searchParams.get("$filter") === "broken") {
        res.writeHead(400, { "content-type": "application/json", "odata-version": "4.01" });
        return res.end(
          JSON.stringify({ error: { code: "InvalidFilter", message: "Syntax error", target: "$filter" } }),
        );
      }
      const size = Number(/maxpagesize=(\d+)/.exec(String(req.headers.prefer))?.[1] ?? 10);
      const skip = Number(url.searchParams.get("$skiptoken") ?? 0);
      if (url.searchParams.get("$filter") === "slow" && skip > 0) await slowPages;
      const filter = url.searchParams.get("$filter");
      const matching =
        filter === "Status eq 'used'"
          ? ROWS.filter((r) => r.Status === "used")
          : filter === "slow"
            ? Array.from({ length: 1000 }, (_, i) => ROWS[i % ROWS.length] as (typeof ROWS)[number])
            : ROWS;
      const select = url.searchParams.get("$select")?.split(",");
      const value = matching
        .slice(skip, skip + size)
        .map((r) => (select ? Object.fromEntries(select.map((k) => [k, r[k as keyof typeof r]])) : r));
      const page: Record<string, unknown> = { "@odata.context": `${origin}/bi/v1/odata/$metadata#Tickets` };
      if (url.searchParams.get("$count") === "true") page["@odata.count"] = matching.length;
      page.value = value;
      if (skip + size < matching.length) {
        const next = new URL(url);
        next.searchParams.set("$skiptoken", String(skip + size));
        page["@odata.nextLink"] = next.href;
      }
      res.writeHead(200, {
        "content-type": "application/json;odata.metadata=minimal",
        "odata-version": "4.01",
      });
      return res.end(JSON.stringify(page));
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function run(
  args: string[],
  env: Record<string, string> = {},
  onStderr?: (text: string, child: ReturnType<typeof spawn>) => void,
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
      onStderr?.(stderr, child);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

// Each test spawns Node processes (about a second each on a loaded 2-core machine): a generous limit.
describe("entrada-bi-export (spawned against a local HTTP feed)", { timeout: 30_000 }, () => {
  let server: Server;
  let base: string;
  let dir: string;
  const seen: Seen = { token: [], feed: [] };
  const creds = ["--client-id", "cli-client", "--client-secret", "s3crét:"];

  beforeAll(async () => {
    server = await startServer(seen);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = mkdtempSync(join(tmpdir(), "bi-export-"));
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("exports a whole dataset to CSV across pages, with one token request and plain progress lines", async () => {
    seen.token.length = 0;
    seen.feed.length = 0;
    const out = join(dir, "tickets.csv");
    const r = await run([
      ...["--base-url", base, ...creds, "--dataset", "Tickets", "--format", "csv", "--out", out],
      ...["--select", "TicketId,HolderName,Status", "--page-size", "5", "--locale", "it-CH"],
    ]);
    expect(r.stderr).toMatch(/done: 23\/23 rows, 5 pages, [\d.]+ (B|KB)/);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("\x1b[");
    const csv = readFileSync(out, "utf8");
    const expected =
      "TicketId,HolderName,Status\r\n" +
      ROWS.map((t) => {
        const name = /[",\n]/.test(t.HolderName) ? `"${t.HolderName.replaceAll('"', '""')}"` : t.HolderName;
        return `${t.TicketId},${name},${t.Status}\r\n`;
      }).join("");
    expect(csv).toBe(expected);
    expect(existsSync(`${out}.partial`)).toBe(false);
    expect(seen.token).toHaveLength(1);
    expect(new URLSearchParams(seen.token[0]?.body)).toEqual(
      new URLSearchParams({ grant_type: "client_credentials", scope: "Shop" }),
    );
    expect(seen.feed).toHaveLength(5);
    expect(seen.feed.every((f) => f.language === "it-CH")).toBe(true);
    expect(
      seen.feed.every((f) => f.authorization === "Bearer tok_cli" && f.prefer === "odata.maxpagesize=5"),
    ).toBe(true);
    expect(new URL(seen.feed[0]?.url ?? "").searchParams.get("$select")).toBe("TicketId,HolderName,Status");
  });

  it("gzips when the output file ends in .gz", async () => {
    const out = join(dir, "tickets.ndjson.gz");
    const r = await run([
      "--base-url",
      base,
      ...creds,
      "--dataset",
      "Tickets",
      "--format",
      "ndjson",
      "--out",
      out,
    ]);
    expect(r.code).toBe(0);
    const lines = gunzipSync(readFileSync(out)).toString("utf8").trimEnd().split("\n");
    expect(lines.map((l) => JSON.parse(l))).toEqual(ROWS);
  });

  it("exports NDJSON to stdout with a filter, taking credentials from the environment", async () => {
    const r = await run(
      [
        "--base-url",
        base,
        "--dataset",
        "Tickets",
        "--format",
        "ndjson",
        "--out",
        "-",
        "--filter",
        "Status eq 'used'",
      ],
      { ENTRADA_CLIENT_ID: "cli-client", ENTRADA_CLIENT_SECRET: "s3crét:" },
    );
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual(ROWS.filter((t) => t.Status === "used"));
    expect(r.stderr).toContain("→ stdout");
  });

  it("exits 3 with the OAuth error when the credentials are wrong, leaving no file", async () => {
    const out = join(dir, "denied.ndjson");
    const r = await run([
      "--base-url",
      base,
      "--client-id",
      "x",
      "--client-secret",
      "y",
      "--dataset",
      "Tickets",
      "--format",
      "ndjson",
      "--out",
      out,
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      "entrada-bi-export: authentication failed: POST /connect/token → 401 invalid_client: Unknown client",
    );
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it("exits 4 with the OData error of the feed, leaving no partial file", async () => {
    const out = join(dir, "broken.csv");
    const r = await run([
      "--base-url",
      base,
      ...creds,
      "--dataset",
      "Tickets",
      "--format",
      "csv",
      "--out",
      out,
      "--filter",
      "broken",
    ]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /BI feed error \[\$filter\]: GET \/bi\/v1\/odata\/\w+ → 400 InvalidFilter: Syntax error/,
    );
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it("exits 130 on Ctrl-C mid-export and removes the partial file", async () => {
    const out = join(dir, "interrupted.ndjson");
    let release = () => {};
    slowPages = new Promise((resolve) => {
      release = resolve;
    });
    let sent = false;
    const r = await run(
      [
        ...["--base-url", base, ...creds, "--dataset", "Tickets", "--format", "ndjson", "--out", out],
        ...["--filter", "slow", "--page-size", "10"],
      ],
      {},
      (text, child) => {
        if (!sent && text.includes("progress:")) {
          sent = true;
          child.kill("SIGINT");
        }
      },
    ).catch((e: unknown) => e);
    release();
    expect(r).toMatchObject({ code: 130 });
    expect((r as { stderr: string }).stderr).toContain("entrada-bi-export: Interrupted");
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it("exits 2 with usage help on bad arguments, before any request", async () => {
    const before = seen.token.length;
    const cases: [string[], RegExp][] = [
      [["--dataset", "Tickets", "--format", "csv", "--out", "-", ...creds], /--base-url is required/],
      [
        ["--base-url", base, "--dataset", "Customers", "--format", "csv", "--out", "-", ...creds],
        /--dataset must be one of Orders, Tickets, Payments, Entrances/,
      ],
      [
        ["--base-url", base, "--dataset", "Tickets", "--format", "xml", "--out", "-", ...creds],
        /--format must be ndjson, csv or parquet/,
      ],
      [
        ["--base-url", base, "--dataset", "Tickets", "--format", "csv", "--out", "-"],
        /Client credentials are required/,
      ],
      [
        [
          "--base-url",
          base,
          "--dataset",
          "Tickets",
          "--format",
          "csv",
          "--out",
          "-",
          "--select",
          "TicketId,bogus",
          ...creds,
        ],
        /unknown Tickets properties bogus/,
      ],
      [
        [
          "--base-url",
          base,
          "--dataset",
          "Tickets",
          "--format",
          "csv",
          "--out",
          "-",
          "--page-size",
          "0",
          ...creds,
        ],
        /--page-size must be a positive integer/,
      ],
      [["--base-url", base, "--bogus"], /Unknown option '--bogus'/],
      [
        [
          "--base-url",
          base,
          "--dataset",
          "Tickets",
          "--format",
          "csv",
          "--out",
          "-",
          "--row-group-size",
          "10",
          ...creds,
        ],
        /--row-group-size and --row-group-bytes go with --format parquet/,
      ],
      [
        [
          "--base-url",
          base,
          "--dataset",
          "Tickets",
          "--format",
          "parquet",
          "--out",
          "x",
          "--row-group-size",
          "1e3",
          ...creds,
        ],
        /--row-group-size must be a positive number of rows \(got "1e3"\)/,
      ],
      [
        [
          "--base-url",
          base,
          "--dataset",
          "Tickets",
          "--format",
          "parquet",
          "--out",
          "x",
          "--row-group-bytes",
          "lots",
          ...creds,
        ],
        /--row-group-bytes must be a size such as 16MiB, 64MB or 1048576 \(got "lots"\)/,
      ],
      [
        [
          "--base-url",
          base,
          "--dataset",
          "Tickets",
          "--format",
          "csv",
          "--out",
          "-",
          "--locale",
          "german",
          ...creds,
        ],
        /--locale must be a culture tag/,
      ],
    ];
    // Spawned together: each process only parses its arguments and exits.
    const results = await Promise.all(cases.map(([args]) => run(args)));
    for (const [i, [args, message]] of cases.entries()) {
      const r = results[i] as Awaited<ReturnType<typeof run>>;
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain("Usage: entrada-bi-export");
    }
    expect(seen.token.length).toBe(before);
  });

  it("exits 5 (network) when the host is unreachable, not 3 (authentication), naming the address and the cause", async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const r = await run([
      ...["--base-url", `http://127.0.0.1:${port}`, ...creds],
      ...["--dataset", "Orders", "--format", "csv", "--out", "-"],
    ]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(
      `entrada-bi-export: network error: POST /connect/token → network error: fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
  });
});

describe("entrada-bi-export against the mock server", { timeout: 30_000 }, () => {
  let mock: MockServer;
  let dir: string;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, webhooks: false });
    dir = mkdtempSync(join(tmpdir(), "bi-export-mock-"));
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("--row-group-size and --row-group-bytes bound the Parquet row groups; the columns come from $metadata", async () => {
    const env = { ENTRADA_CLIENT_ID: "entrada-demo", ENTRADA_CLIENT_SECRET: "demo-secret" };
    const args = (out: string, ...extra: string[]) => [
      ...["--base-url", mock.url, "--dataset", "Entrances", "--format", "parquet", "--out", out, "--quiet"],
      ...extra,
    ];
    const groups = (path: string) => {
      const b = readFileSync(path);
      const meta = parquetMetadata(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
      return { rows: Number(meta.num_rows), groups: meta.row_groups.map((g) => Number(g.num_rows)) };
    };
    const byRows = join(dir, "by-rows.parquet");
    const r1 = await run(args(byRows, "--row-group-size", "40"), env);
    expect(r1.code).toBe(0);
    expect(r1.stderr).toBe(""); // $metadata was read: no warning
    const a = groups(byRows);
    expect(a.rows).toBeGreaterThan(80);
    expect(Math.max(...a.groups)).toBe(40);
    expect(a.groups.length).toBe(Math.ceil(a.rows / 40));

    const byBytes = join(dir, "by-bytes.parquet");
    expect((await run(args(byBytes, "--row-group-bytes", "8KiB"), env)).code).toBe(0);
    const b = groups(byBytes);
    expect(b.rows).toBe(a.rows);
    // A scan row buffers a few hundred bytes: 8 KiB holds far fewer than the default 100 000 rows.
    expect(Math.max(...b.groups)).toBeLessThan(60);
    expect(b.groups.length).toBeGreaterThan(1);
  });

  it("exports the Entrances dataset to NDJSON, every row once", async () => {
    const out = join(dir, "entrances.ndjson");
    const r = await run(
      [
        ...["--base-url", mock.url, "--dataset", "Entrances", "--format", "ndjson", "--out", out],
        ...["--page-size", "500", "--filter", "Direction eq 'entry'"],
      ],
      { ENTRADA_CLIENT_ID: "entrada-demo", ENTRADA_CLIENT_SECRET: "demo-secret" },
    );
    expect(r.stderr).toMatch(/done: (\d+)\/\1 rows/);
    expect(r.code).toBe(0);
    const rows = readFileSync(out, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { ScanId: string; Direction: string });
    const total = Number(/done: (\d+)\//.exec(r.stderr)?.[1]);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((row) => row.ScanId)).size).toBe(total);
    expect(rows.every((row) => row.Direction === "entry")).toBe(true);
  });
});
