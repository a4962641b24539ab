import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { type MockServer, startMockServer } from "@entrada/mock-server/node";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BiFeed,
  BiStateError,
  biFeed,
  exportIncremental,
  loadIntoDuckDb,
  newIncrementalState,
  odata,
  readIncrementalState,
} from "../../src/bi/index.ts";
import { createClient } from "../../src/index.ts";

/** Collects a byte stream into one buffer (a test stand-in for a file). */
function sink() {
  const chunks: Uint8Array[] = [];
  return {
    stream: new WritableStream<Uint8Array>({ write: (c) => void chunks.push(c) }),
    bytes: () => Buffer.concat(chunks),
  };
}
const arrayBuffer = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

async function duck<T>(sql: string, attach?: string): Promise<T[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const db = await instance.connect();
  try {
    if (attach) await db.run(`ATTACH '${attach}' AS w (READ_ONLY)`);
    return (await db.runAndReadAll(sql)).getRowObjectsJson() as T[];
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

describe("warehouse loads from the BI feed (mock server over HTTP)", () => {
  let mock: MockServer;
  let bi: BiFeed;
  let dir: string;
  const credentials = {
    clientId: "entrada-demo",
    clientSecret: "demo-secret",
    scope: ["Shop", "TERP"] as const,
  };

  beforeAll(async () => {
    mock = await startMockServer({ port: 0, webhooks: false });
    const client = createClient({ baseUrl: mock.url, ...credentials, scope: ["Shop", "TERP"] });
    bi = biFeed(client.fetch, { baseUrl: mock.url, maxPageSize: 500 });
    dir = mkdtempSync(join(tmpdir(), "entrada-warehouse-"));
  });
  afterAll(async () => {
    await mock?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function buy(): Promise<string> {
    const client = createClient({ baseUrl: mock.url, ...credentials, scope: ["Shop"] });
    const { data: events } = await client.shop.listEvents.orThrow({ params: { query: { limit: 5 } } });
    for (const summary of events.items) {
      if (!summary.available) continue;
      const { data: event } = await client.shop.getEvent.orThrow({
        params: { path: { eventId: summary.id } },
      });
      const slot = event.slots.find((s) => s.available > 0);
      const article = event.pricingAssortments.flatMap((a) => a.articles)[0];
      if (!slot || !article) continue;
      const { data: cart } = await client.shop.createCart.orThrow({ body: { currency: "CHF" } });
      await client.shop.addCartItem.orThrow({
        params: { path: { id: cart.id } },
        body: { articleId: article.id, slotId: slot.id, quantity: 1 },
      });
      await client.shop.setCartCustomer.orThrow({
        params: { path: { id: cart.id } },
        body: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
      });
      await client.shop.setCartPaymentProvider.orThrow({
        params: { path: { id: cart.id } },
        body: { paymentProviderId: "card" },
      });
      const { data } = await client.shop.checkoutCart.orThrow({
        params: { path: { id: cart.id } },
        body: { paymentMethod: { cardNumber: "4242424242424242" } },
      });
      if (data.status === "completed") return data.order.id;
    }
    throw new Error("no bookable event in the seed");
  }

  it("writes Parquet with typed columns from $metadata, readable by hyparquet and DuckDB", {
    timeout: 30_000,
  }, async () => {
    const out = sink();
    const progress = await bi.export(odata("Tickets").count(), out.stream, { format: "parquet" });
    const file = out.bytes();
    expect(file.subarray(0, 4).toString()).toBe("PAR1");
    expect(progress.rows).toBe(progress.total);
    const meta = parquetMetadata(arrayBuffer(file));
    expect(Number(meta.num_rows)).toBe(progress.total);
    const byName = Object.fromEntries(meta.schema.slice(1).map((s) => [s.name, s]));
    expect(byName.TicketId).toMatchObject({
      type: "BYTE_ARRAY",
      converted_type: "UTF8",
      repetition_type: "REQUIRED",
    });
    expect(byName.PriceAmount).toMatchObject({
      type: "INT64",
      converted_type: "DECIMAL",
      scale: 2,
      precision: 18,
    });
    expect(byName.PriceAmount?.repetition_type).toBe("OPTIONAL");
    expect(byName.IssuedAt?.logical_type).toMatchObject({
      type: "TIMESTAMP",
      isAdjustedToUTC: true,
      unit: "MILLIS",
    });

    // The same rows as the JSON feed, value for value.
    const rows = await parquetReadObjects({ file: arrayBuffer(file) });
    const json: Record<string, unknown>[] = [];
    for await (const row of bi.rows(odata("Tickets"))) json.push(row);
    expect(rows).toHaveLength(json.length);
    const first = rows[0] as Record<string, unknown>;
    const same = json.find((r) => r.TicketId === first.TicketId) as Record<string, unknown>;
    expect(first.PriceAmount).toBe(same.PriceAmount);
    expect((first.IssuedAt as Date).toISOString()).toBe(new Date(same.IssuedAt as string).toISOString());
    expect(first.FirstAdmittedAt === null ? null : (first.FirstAdmittedAt as Date).getTime()).toBe(
      same.FirstAdmittedAt === null ? null : Date.parse(same.FirstAdmittedAt as string),
    );

    // An independent reader (DuckDB's own Parquet reader) agrees on the types and the totals.
    const path = join(dir, "tickets.parquet");
    writeFileSync(path, file);
    const [types] = await duck<Record<string, string>>(
      `SELECT typeof(PriceAmount) AS price, typeof(IssuedAt) AS issued, typeof(TicketId) AS id FROM '${path}' LIMIT 1`,
    );
    expect(types).toEqual({ price: "DECIMAL(18,2)", issued: "TIMESTAMP WITH TIME ZONE", id: "VARCHAR" });
    const [sum] = await duck<{ n: number; total: string }>(
      `SELECT count(*)::INTEGER AS n, sum(PriceAmount)::VARCHAR AS total FROM '${path}'`,
    );
    const expected = json.reduce((t, r) => t + Math.round(((r.PriceAmount as number | null) ?? 0) * 100), 0);
    expect(sum).toEqual({ n: json.length, total: (expected / 100).toFixed(2) });
  });

  it("incremental: the first run exports everything, the next only what changed, a third nothing", async () => {
    let state = newIncrementalState({ feed: bi, dataset: "Orders" });
    const run = async () => {
      const out = sink();
      const result = await exportIncremental(bi, odata("Orders").count(), out.stream, {
        format: "ndjson",
        state,
      });
      state = result.state;
      return out
        .bytes()
        .toString()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { OrderId: string });
    };
    const all = await run();
    let total = 0;
    for await (const _ of bi.rows(odata("Orders"))) total++;
    expect(all).toHaveLength(total);
    expect(state.watermark?.key).toBe(all.at(-1)?.OrderId);
    expect(await run()).toEqual([]);
    const orderId = await buy();
    expect((await run()).map((r) => r.OrderId)).toEqual([orderId]);
    expect(await run()).toEqual([]);
    expect(state).toMatchObject({ dataset: "Orders", rows: total + 1, runs: 4 });
  });

  it("refuses a state file from another feed, dataset or filter, with a clear message", () => {
    const saved = JSON.stringify(newIncrementalState({ feed: bi, dataset: "Tickets" }));
    expect(() => readIncrementalState(saved, { feed: bi, dataset: "Orders" })).toThrow(
      "The state file belongs to the Tickets dataset, not Orders: use a state file per dataset",
    );
    expect(() =>
      readIncrementalState(saved, { feed: "https://other.example/bi/v1/odata", dataset: "Tickets" }),
    ).toThrow(`The state file belongs to the feed ${bi.root.href}, not https://other.example/bi/v1/odata`);
    expect(() =>
      readIncrementalState(saved, { feed: bi, dataset: "Tickets", filter: "Status eq 'used'" }),
    ).toThrow(BiStateError);
    expect(() => readIncrementalState("{}", { feed: bi, dataset: "Tickets" })).toThrow(
      /not an entrada-bi-export state/,
    );
  });

  it("DuckDB: upsert by key; an interrupted load resumes without duplicates or gaps", async () => {
    const database = join(dir, "entrada.duckdb");
    let total = 0;
    for await (const _ of bi.rows(odata("Entrances"))) total++;
    expect(total).toBeGreaterThan(1500);
    // Stop after the second committed page, as a crash would.
    const controller = new AbortController();
    await expect(
      loadIntoDuckDb(bi, odata("Entrances"), {
        database,
        maxPageSize: 500,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.pages === 2) controller.abort(new Error("crash"));
        },
      }),
    ).rejects.toThrow("crash");
    const resumed = await loadIntoDuckDb(bi, odata("Entrances"), { database, maxPageSize: 500 });
    expect(resumed.rows).toBe(total - 1000); // the two committed pages are not loaded again
    expect(resumed.tableRows).toBe(total);
    const again = await loadIntoDuckDb(bi, odata("Entrances"), { database });
    expect(again).toMatchObject({ rows: 0, tableRows: total });
    const full = await loadIntoDuckDb(bi, odata("Entrances"), { database, full: true });
    expect(full).toMatchObject({ rows: total, tableRows: total }); // upserted, not appended
    const [counts] = await duck<{ n: number; ids: number; typed: string }>(
      "SELECT count(*)::INTEGER AS n, count(DISTINCT ScanId)::INTEGER AS ids, any_value(typeof(ScannedAt)) AS typed FROM w.Entrances",
      database,
    );
    expect(counts).toEqual({ n: total, ids: total, typed: "TIMESTAMP WITH TIME ZONE" });
    await expect(
      loadIntoDuckDb(bi, odata("Entrances").filter("Result eq 'admitted'"), { database }),
    ).rejects.toThrow(/was written for \$filter null/);
  }, 60_000);
});
