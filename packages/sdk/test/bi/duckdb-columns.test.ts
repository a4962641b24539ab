import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import type { BiColumn } from "../../src/bi/csdl.ts";
import { biFeed, loadIntoDuckDb, odata } from "../../src/bi/index.ts";
import { fakeFeed, jsonCsdl } from "./fake-feed.ts";

const dir = mkdtempSync(join(tmpdir(), "entrada-duckdb-columns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function query(database: string, sql: string) {
  const instance = await DuckDBInstance.create(database);
  const db = await instance.connect();
  try {
    return (await db.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

const columnTypes = (database: string, table: string) =>
  query(
    database,
    `SELECT column_name AS name, data_type AS type, is_nullable AS nullable FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`,
  );

describe("loadIntoDuckDb takes the table's columns from $metadata", () => {
  const columns: BiColumn[] = [
    { name: "TicketId", kind: "string", nullable: false },
    { name: "ModifiedAt", kind: "datetime", nullable: false },
    { name: "Seats", kind: "int64", nullable: true },
    { name: "Fee", kind: "decimal", nullable: true, precision: 10, scale: 3 },
    { name: "Extra", kind: "other", nullable: true },
  ];
  const rows = [0, 1, 2].map((i) => ({
    TicketId: `tkt_${i}`,
    ModifiedAt: `2026-01-0${i + 1}T10:00:00Z`,
    Seats: i === 1 ? null : 2 ** 40 + i,
    Fee: i + 0.125,
    Extra: { gate: i },
  }));

  it("creates the columns and types the feed declares, including ones the SDK does not know, without a warning", async () => {
    const feed = fakeFeed(rows, { metadata: jsonCsdl({ Tickets: columns }) });
    const database = join(dir, "from-metadata.duckdb");
    const warnings: string[] = [];
    const result = await loadIntoDuckDb(
      biFeed({ baseUrl: feed.origin, fetch: feed.fetch }),
      odata("Tickets"),
      {
        database,
        onWarning: (m) => warnings.push(m),
      },
    );
    expect(warnings).toEqual([]);
    expect(result).toMatchObject({ rows: 3, tableRows: 3 });
    expect(await columnTypes(database, "Tickets")).toEqual([
      { name: "TicketId", type: "VARCHAR", nullable: "NO" },
      { name: "ModifiedAt", type: "TIMESTAMP WITH TIME ZONE", nullable: "NO" },
      { name: "Seats", type: "BIGINT", nullable: "YES" },
      { name: "Fee", type: "DECIMAL(10,3)", nullable: "YES" },
      { name: "Extra", type: "VARCHAR", nullable: "YES" },
    ]);
    expect(
      await query(
        database,
        "SELECT Seats::VARCHAR AS s, Fee::VARCHAR AS f, Extra FROM Tickets ORDER BY TicketId",
      ),
    ).toEqual([
      { s: "1099511627776", f: "0.125", Extra: '{"gate":0}' },
      { s: null, f: "1.125", Extra: '{"gate":1}' },
      { s: "1099511627778", f: "2.125", Extra: '{"gate":2}' },
    ]);
  });

  it("falls back to the built-in copy with a warning when $metadata cannot be read", async () => {
    const feed = fakeFeed(rows, { metadata: null });
    const database = join(dir, "built-in.duckdb");
    const warnings: string[] = [];
    await loadIntoDuckDb(
      biFeed({ baseUrl: feed.origin, fetch: feed.fetch, maxAttempts: 1 }),
      odata("Tickets").select("TicketId"),
      { database, onWarning: (m) => warnings.push(m) },
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/\$metadata could not be read .*404.*built-in copy of Tickets/);
    // The selection, its key and the change stamp, typed as the SDK's copy types them.
    expect(await columnTypes(database, "Tickets")).toEqual([
      { name: "TicketId", type: "VARCHAR", nullable: "NO" },
      { name: "ModifiedAt", type: "TIMESTAMP WITH TIME ZONE", nullable: "NO" },
    ]);
  });

  it("adds the columns the feed gained to an existing table, nullable, and fills them on a full load", async () => {
    const database = join(dir, "evolves.duckdb");
    const before = columns.slice(0, 2);
    const old = fakeFeed(
      rows.map(({ TicketId, ModifiedAt }) => ({ TicketId, ModifiedAt })),
      { metadata: jsonCsdl({ Tickets: before }) },
    );
    await loadIntoDuckDb(biFeed({ baseUrl: old.origin, fetch: old.fetch }), odata("Tickets"), { database });
    const later = rows.map((r) => ({
      ...r,
      ModifiedAt: r.TicketId === "tkt_2" ? "2026-02-01T10:00:00Z" : r.ModifiedAt,
    }));
    // After the watermark the feed has the one changed row (this fake feed does not filter: it is given that row).
    const changed = fakeFeed(
      later.filter((r) => r.TicketId === "tkt_2"),
      { metadata: jsonCsdl({ Tickets: columns }) },
    );
    const warnings: string[] = [];
    const result = await loadIntoDuckDb(
      biFeed({ baseUrl: changed.origin, fetch: changed.fetch }),
      odata("Tickets"),
      { database, onWarning: (m) => warnings.push(m) },
    );
    expect(result).toMatchObject({ rows: 1, tableRows: 3 });
    expect(warnings).toEqual([
      "table Tickets gained the feed's new columns Seats, Fee, Extra: rows loaded before hold NULL there until they change; load with full (--full) to fill them now",
    ]);
    expect((await columnTypes(database, "Tickets")).map((c) => `${c.name} ${c.type} ${c.nullable}`)).toEqual([
      "TicketId VARCHAR NO",
      "ModifiedAt TIMESTAMP WITH TIME ZONE NO",
      "Seats BIGINT YES",
      "Fee DECIMAL(10,3) YES",
      "Extra VARCHAR YES",
    ]);
    // The changed row has its new columns; the others wait for a change or a full load.
    expect(
      await query(database, "SELECT TicketId, Fee::VARCHAR AS f FROM Tickets ORDER BY TicketId"),
    ).toEqual([
      { TicketId: "tkt_0", f: null },
      { TicketId: "tkt_1", f: null },
      { TicketId: "tkt_2", f: "2.125" },
    ]);
    const feed = fakeFeed(later, { metadata: jsonCsdl({ Tickets: columns }) });
    await loadIntoDuckDb(biFeed({ baseUrl: feed.origin, fetch: feed.fetch }), odata("Tickets"), {
      database,
      full: true,
    });
    expect(await query(database, "SELECT count(Fee) AS n FROM Tickets")).toEqual([{ n: "3" }]);
  });
});
