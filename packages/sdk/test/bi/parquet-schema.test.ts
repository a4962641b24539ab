import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import { type BiColumn, builtInColumns, parseCsdl } from "../../src/bi/csdl.ts";
import { biFeed, exportIncremental, newIncrementalState, ODataError, odata } from "../../src/bi/index.ts";
import { ParquetEncoder } from "../../src/bi/parquet.ts";
import { encodeFile, fakeFeed, jsonCsdl, tickets } from "./fake-feed.ts";

const bytes = async (stream: ReadableStream<Uint8Array>) => new Response(stream).arrayBuffer();

const XML = `<?xml version="1.0" encoding="utf-8"?>
<edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">
  <edmx:DataServices>
    <Schema Namespace="Entrada.Bi" xmlns="http://docs.oasis-open.org/odata/ns/edm">
      <EntityType Name="Scan">
        <Key><PropertyRef Name="ScanId"/></Key>
        <Property Name="ScanId" Type="Edm.String" Nullable="false"/>
        <Property Name="Fee" Type="Edm.Decimal" Precision="10" Scale="3"/>
        <Property Name="Score" Type="Edm.Int64" Nullable="false">
          <Annotation Term="Org.OData.Core.V1.Description" String="A score"/>
        </Property>
        <Property Name="Took" Type="Edm.Duration"/>
      </EntityType>
      <EntityContainer Name="Container">
        <EntitySet Name="Entrances" EntityType="Entrada.Bi.Scan"/>
      </EntityContainer>
    </Schema>
  </edmx:DataServices>
</edmx:Edmx>`;

describe("$metadata → columns", () => {
  it("reads JSON CSDL: entity sets, their types' properties in order, nullability, decimal precision and scale", () => {
    const schema = parseCsdl(jsonCsdl());
    expect(Object.keys(schema).sort()).toEqual(["Entrances", "Orders", "Payments", "Tickets"]);
    expect(schema.Tickets).toEqual(builtInColumns("Tickets"));
    expect(schema.Orders?.find((c) => c.name === "TotalAmount")).toEqual({
      name: "TotalAmount",
      kind: "decimal",
      nullable: false,
      precision: 18,
      scale: 2,
    });
  });

  it("reads XML CSDL (Nullable defaults to true; unknown EDM types are kept as text)", () => {
    expect(parseCsdl(XML)).toEqual({
      Entrances: [
        { name: "ScanId", kind: "string", nullable: false },
        { name: "Fee", kind: "decimal", nullable: true, precision: 10, scale: 3 },
        { name: "Score", kind: "int64", nullable: false },
        { name: "Took", kind: "other", nullable: true },
      ],
    });
  });

  it("refuses what is no CSDL", () => {
    expect(() => parseCsdl("hello")).toThrow(/neither JSON nor XML/);
    expect(() => parseCsdl("{}")).toThrow(/EntityContainer/);
    expect(() => parseCsdl("<html></html>")).toThrow(/no EntitySet/);
  });

  it("feed.schema() asks the feed for JSON CSDL; a 404 is the feed's error, garbage an invalid_metadata error", async () => {
    const ok = fakeFeed([]);
    const schema = await biFeed({ baseUrl: ok.origin, fetch: ok.fetch }).schema();
    expect(schema.Entrances).toEqual(builtInColumns("Entrances"));
    expect(ok.calls[0]?.url.pathname).toBe("/bi/v1/odata/$metadata");
    expect(ok.calls[0]?.headers.get("accept")).toMatch(/^application\/json/);

    const missing = fakeFeed([], { metadata: null });
    const e404 = await biFeed({ baseUrl: missing.origin, fetch: missing.fetch, maxAttempts: 1 })
      .schema()
      .catch((e: unknown) => e);
    expect(e404).toBeInstanceOf(ODataError);
    expect(e404).toMatchObject({ status: 404, code: "not_found" });

    const garbage = fakeFeed([], { metadata: "<p>maintenance</p>" });
    const bad = await biFeed({ baseUrl: garbage.origin, fetch: garbage.fetch })
      .schema()
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ kind: "odata", code: "invalid_metadata" });
  });
});

describe("Parquet export columns come from $metadata", () => {
  const scans = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      ScanId: `scn_${i}`,
      Fee: i + 0.125,
      Score: i * 1000,
      Took: "PT2S",
    }));

  it("writes the types the feed declares, including columns the SDK does not know", async () => {
    const feed = fakeFeed(scans(5), { metadata: XML });
    const warnings: string[] = [];
    const buffer = await bytes(
      biFeed({ baseUrl: feed.origin, fetch: feed.fetch }).exportStream(odata("Entrances"), {
        format: "parquet",
        onWarning: (m) => warnings.push(m),
      }),
    );
    expect(warnings).toEqual([]);
    const meta = parquetMetadata(buffer);
    const leaves = meta.schema.slice(1).map((e) => [e.name, e.type, e.logical_type?.type ?? null]);
    expect(leaves).toEqual([
      ["ScanId", "BYTE_ARRAY", "STRING"],
      ["Fee", "INT64", "DECIMAL"],
      ["Score", "INT64", null],
      ["Took", "BYTE_ARRAY", "STRING"],
    ]);
    expect(meta.schema[2]).toMatchObject({ precision: 10, scale: 3 });
    const rows = await parquetReadObjects({ file: buffer });
    expect(rows[3]).toEqual({ ScanId: "scn_3", Fee: 3.125, Score: 3000n, Took: "PT2S" });
  });

  it("falls back to the built-in copy with a warning when $metadata cannot be read", async () => {
    const feed = fakeFeed(tickets(3), { metadata: null });
    const warnings: string[] = [];
    const buffer = await bytes(
      biFeed({ baseUrl: feed.origin, fetch: feed.fetch, maxAttempts: 1 }).exportStream(
        odata("Tickets").select("TicketId", "PriceAmount"),
        {
          format: "parquet",
          onWarning: (m) => warnings.push(m),
        },
      ),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /\$metadata could not be read \(GET \/bi\/v1\/odata\/\$metadata → 404 not_found: No \$metadata here\).*built-in copy of Tickets/,
    );
    const rows = await parquetReadObjects({ file: buffer });
    expect(rows.map((r) => r.TicketId)).toEqual(["tkt_0", "tkt_1", "tkt_2"]);
    // PriceAmount as the built-in copy types it: DECIMAL(18, 2).
    expect(parquetMetadata(buffer).schema[2]).toMatchObject({ name: "PriceAmount", precision: 18, scale: 2 });
  });

  it("an incremental Parquet export takes its columns from $metadata too (no warning, the feed's own columns)", async () => {
    const columns: BiColumn[] = [
      { name: "TicketId", kind: "string", nullable: false },
      { name: "ModifiedAt", kind: "datetime", nullable: false },
      { name: "Seats", kind: "int64", nullable: true },
    ];
    const rows = [0, 1, 2].map((i) => ({
      TicketId: `tkt_${i}`,
      ModifiedAt: `2026-01-0${i + 1}T10:00:00Z`,
      Seats: i === 1 ? null : i * 2,
    }));
    const feed = fakeFeed(rows, { metadata: jsonCsdl({ Tickets: columns }) });
    const bi = biFeed({ baseUrl: feed.origin, fetch: feed.fetch });
    const warnings: string[] = [];
    const parts: Uint8Array[] = [];
    const { state } = await exportIncremental(
      bi,
      odata("Tickets"),
      new WritableStream({ write: (c) => void parts.push(c) }),
      {
        format: "parquet",
        state: newIncrementalState({ feed: bi, dataset: "Tickets" }),
        onWarning: (m) => warnings.push(m),
      },
    );
    expect(warnings).toEqual([]);
    const file = await new Blob(parts as BlobPart[]).arrayBuffer();
    expect(
      parquetMetadata(file)
        .schema.slice(1)
        .map((e) => [e.name, e.type]),
    ).toEqual([
      ["TicketId", "BYTE_ARRAY"],
      ["ModifiedAt", "INT64"],
      ["Seats", "INT64"],
    ]);
    expect((await parquetReadObjects({ file })).map((r) => r.Seats)).toEqual([0n, null, 4n]);
    expect(state.watermark).toEqual({ modifiedAt: "2026-01-03T10:00:00Z", key: "tkt_2" });
  });

  it("an instant that is no date is refused, naming the column, instead of written as a wrong number", async () => {
    const columns: BiColumn[] = [
      { name: "ScanId", kind: "string", nullable: false },
      { name: "At", kind: "datetime", nullable: true },
    ];
    const feed = fakeFeed([{ ScanId: "s1", At: "yesterday" }], {
      metadata: jsonCsdl({ Entrances: columns }),
    });
    const error = await bytes(
      biFeed({ baseUrl: feed.origin, fetch: feed.fetch }).exportStream(odata("Entrances"), {
        format: "parquet",
      }),
    ).catch((e: unknown) => e);
    expect(String(error)).toMatch(/At: "yesterday" is no valid Edm.DateTimeOffset/);
  });

  it("a $select picks columns from $metadata; one it does not describe is refused", async () => {
    const feed = fakeFeed(scans(2), { metadata: XML });
    const feedClient = biFeed({ baseUrl: feed.origin, fetch: feed.fetch });
    const buffer = await bytes(
      feedClient.exportStream(odata("Entrances").select("ScanId"), {
        format: "parquet",
        onWarning: () => {},
      }),
    );
    expect(await parquetReadObjects({ file: buffer })).toEqual([{ ScanId: "scn_0" }, { ScanId: "scn_1" }]);
    const refused = await bytes(
      feedClient.exportStream(odata("Entrances").select("GateId"), {
        format: "parquet",
        onWarning: () => {},
      }),
    ).catch((e: unknown) => e);
    expect(String(refused)).toMatch(
      /Unknown property "GateId" of Entrances; expected one of ScanId, Fee, Score, Took/,
    );
  });
});

describe("row groups are bounded by rows and by bytes", () => {
  const columns: BiColumn[] = [
    { name: "Id", kind: "string", nullable: false },
    { name: "Note", kind: "string", nullable: true },
  ];
  const rows = (n: number, note: string) =>
    Array.from({ length: n }, (_, i) => ({ Id: `id_${i}`, Note: note }));

  function groups(encoder: ParquetEncoder, input: Record<string, unknown>[]) {
    return parquetMetadata(encodeFile(encoder, input, 100)).row_groups.map((g) => Number(g.num_rows));
  }

  it("ends a row group at rowGroupSize rows", () => {
    const encoder = new ParquetEncoder("Entrances", undefined, { schema: columns, rowGroupSize: 300 });
    expect(groups(encoder, rows(1000, "x"))).toEqual([300, 300, 300, 100]);
  });

  it("ends a row group at about rowGroupBytes of buffered values, so wide rows stay bounded", () => {
    // Each row: "id_…" (≈ 16 + 5 B) + a 1,000-character note (16 + 1,000 B) ≈ 1 KB → 50 rows per 50 KB group.
    const encoder = new ParquetEncoder("Entrances", undefined, {
      schema: columns,
      rowGroupSize: 100_000,
      rowGroupBytes: 50_000,
    });
    const sizes = groups(encoder, rows(500, "n".repeat(1000)));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(500);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(50);
    expect(sizes.length).toBeGreaterThanOrEqual(10);
  });

  it("refuses bounds that are no positive integers", () => {
    expect(() => new ParquetEncoder("Entrances", undefined, { rowGroupSize: 0 })).toThrow(
      /rowGroupSize must be a positive integer/,
    );
    expect(() => new ParquetEncoder("Entrances", undefined, { rowGroupBytes: 1.5 })).toThrow(
      /rowGroupBytes must be a positive integer/,
    );
  });
});
