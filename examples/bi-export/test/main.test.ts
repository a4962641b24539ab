import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_CLIENTS } from "@entrada/mock-server";
import { type MockServer, startMockServer } from "@entrada/mock-server/node";
import { createClient } from "@entrada/sdk";
import { biFeed, odata } from "@entrada/sdk/bi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/main.ts";

const demo = DEMO_CLIENTS.find((c) => c.scopes.includes("Shop"));
if (!demo?.secrets[0]) throw new Error("The mock has no demo client with scope Shop");
const credentials = { clientId: demo.clientId, clientSecret: demo.secrets[0] };
const SELECTED = [
  "TicketId",
  "OrderId",
  "EventId",
  "EventName",
  "ArticleName",
  "PriceAmount",
  "Currency",
  "Status",
  "IssuedAt",
];

describe("bi-export against the mock over HTTP", () => {
  let mock: MockServer;
  let dir: string;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, webhooks: false });
    dir = mkdtempSync(join(tmpdir(), "entrada-bi-export-"));
  });
  afterAll(async () => {
    await mock?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("writes one NDJSON line per row of the filtered, ordered feed, page by page", async () => {
    const out = join(dir, "tickets.ndjson");
    const lines: string[] = [];
    const started = Date.now();
    const result = await main({
      baseUrl: mock.url,
      ...credentials,
      sinceDays: 90,
      out,
      pageSize: 100,
      locale: "en-GB",
      log: (line) => lines.push(line),
    });

    // The feed's own count for the same filter, asked independently of the export.
    const client = createClient({ baseUrl: mock.url, ...credentials, scope: "Shop" });
    const bi = biFeed({ baseUrl: mock.url, getToken: () => client.getAccessToken() });
    const counted = await bi.pages(odata("Tickets").filter(result.filter).top(1).count()).next();
    const feedCount = counted.done ? undefined : counted.value.count;
    expect(feedCount).toBeGreaterThan(100);

    const text = readFileSync(out, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const rows = text
      .slice(0, -1)
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows).toHaveLength(feedCount ?? -1);
    expect(result.rows).toBe(feedCount);
    expect(result.total).toBe(feedCount);
    expect(result.pages).toBe(Math.ceil((feedCount ?? 0) / 100));
    expect(result.bytes).toBe(Buffer.byteLength(text));
    expect(existsSync(`${out}.partial`)).toBe(false);

    const since = started - 90 * 86_400_000;
    let previous = 0;
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(SELECTED);
      expect(["valid", "used"]).toContain(row.Status);
      const issued = Date.parse(String(row.IssuedAt));
      expect(issued).toBeGreaterThanOrEqual(since - 1000);
      expect(issued).toBeGreaterThanOrEqual(previous);
      previous = issued;
    }
    expect(new Set(rows.map((r) => r.TicketId)).size).toBe(rows.length);

    // One progress line per page, counting up to the total.
    const progress = lines.filter((l) => l.startsWith("page "));
    expect(progress).toHaveLength(result.pages);
    expect(progress.at(-1)).toContain(`${feedCount} rows of ${feedCount} (100%)`);
  });

  it("leaves no file behind when the feed refuses the credentials", async () => {
    const out = join(dir, "refused.ndjson");
    await expect(
      main({
        baseUrl: mock.url,
        clientId: credentials.clientId,
        clientSecret: "wrong-secret",
        sinceDays: 30,
        out,
        pageSize: 100,
        locale: "en-GB",
        log: () => {},
      }),
    ).rejects.toMatchObject({ kind: "oauth", error: "invalid_client" });
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});
