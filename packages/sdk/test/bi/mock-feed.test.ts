import { type MockServer, startMockServer } from "@entrada/mock-server/node";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BiFeed, biEntitySets, biFeed, ODataError, odata } from "../../src/bi/index.ts";

// The SDK against the mock server's OData feed: our literals and paging against an independent parser.
describe("biFeed against the mock server", () => {
  let mock: MockServer;
  let bi: BiFeed;
  let tokenRequests = 0;

  beforeAll(async () => {
    mock = await startMockServer({ port: 0, webhooks: false });
    let token: Promise<string> | undefined;
    bi = biFeed({
      baseUrl: mock.url,
      maxPageSize: 250,
      getToken: () => {
        token ??= (async () => {
          tokenRequests++;
          const res = await fetch(`${mock.url}/connect/token`, {
            method: "POST",
            headers: {
              authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
              "content-type": "application/x-www-form-urlencoded",
            },
            body: "grant_type=client_credentials&scope=Shop",
          });
          return ((await res.json()) as { access_token: string }).access_token;
        })();
        return token;
      },
    });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it("exports the orders' vouchers and the tickets' venue zone to Parquet, typed, equal to the feed's rows", async () => {
    const query = odata("Orders").select("OrderId", "TotalAmount", "DiscountAmount", "VoucherCode");
    const buffer = new Uint8Array(
      await new Response(bi.exportStream(query, { format: "parquet" })).arrayBuffer(),
    );
    const leaves = parquetMetadata(buffer.buffer).schema.slice(1);
    expect(leaves.map((e) => [e.name, e.logical_type?.type ?? null, e.repetition_type])).toEqual([
      ["OrderId", "STRING", "REQUIRED"],
      ["TotalAmount", "DECIMAL", "REQUIRED"],
      ["DiscountAmount", "DECIMAL", "REQUIRED"],
      ["VoucherCode", "STRING", "OPTIONAL"],
    ]);
    const written = await parquetReadObjects({ file: buffer.buffer });
    const fed: Record<string, unknown>[] = [];
    for await (const row of bi.rows(query)) fed.push(row);
    // hyparquet reads DECIMAL(18, 2) as unscaled × 0.01 (52.050000000000004): compared at two decimals.
    const cents = (n: unknown) => Math.round((n as number) * 100);
    const shape = (r: Record<string, unknown>) => ({
      ...r,
      TotalAmount: cents(r.TotalAmount),
      DiscountAmount: cents(r.DiscountAmount),
      VoucherCode: r.VoucherCode ?? null,
    });
    expect(written.map(shape)).toEqual(fed.map(shape));
    expect(written.some((r) => r.VoucherCode !== null && (r.DiscountAmount as number) > 0)).toBe(true);
    const zones = odata("Tickets").select("TicketId", "EventStartsAt", "VenueTimeZone").top(5);
    const tickets = await parquetReadObjects({
      file: (await new Response(bi.exportStream(zones, { format: "parquet" })).arrayBuffer()) as ArrayBuffer,
    });
    expect(tickets.map((t) => t.VenueTimeZone)).toEqual(Array(5).fill("Europe/Zurich"));
    expect(tickets[0]?.EventStartsAt).toBeInstanceOf(Date);
  });

  it("pages through every dataset to @odata.count rows with the contract's properties", async () => {
    for (const set of Object.keys(biEntitySets) as (keyof typeof biEntitySets)[]) {
      let total: number | undefined;
      let rows = 0;
      let pages = 0;
      const ids = new Set<unknown>();
      for await (const page of bi.pages(odata(set).count())) {
        pages++;
        total ??= page.count;
        rows += page.value.length;
        for (const row of page.value) {
          expect(Object.keys(row).sort()).toEqual(Object.keys(biEntitySets[set]).sort());
          ids.add(Object.values(row)[0]);
        }
      }
      expect(total, set).toBeGreaterThan(250);
      expect(rows, set).toBe(total);
      expect(ids.size, `${set}: no row twice across pages`).toBe(total);
      expect(pages).toBe(Math.ceil((total as number) / 250));
    }
    expect(tokenRequests).toBe(1);
  });

  it("sends filters the server parses and applies as the builder means them", async () => {
    const since = new Date("2025-06-01T00:00:00Z");
    const q = odata("Tickets")
      .filter((f) =>
        f.and(
          f.in("Status", ["valid", "used"]),
          f.ge("IssuedAt", since),
          f.or(f.eq("Source", "shop"), f.ne("Vendor", null)),
          f.not(f.contains(f.tolower("EventName"), "zzz'q")),
          f.ge(f.year("IssuedAt"), 2025),
        ),
      )
      .select("TicketId", "Status", "IssuedAt", "Source", "Vendor", "EventName")
      .orderBy("IssuedAt", "desc")
      .count();
    const rows = [];
    for await (const row of bi.rows(q)) rows.push(row);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual([
        "EventName",
        "IssuedAt",
        "Source",
        "Status",
        "TicketId",
        "Vendor",
      ]);
      expect(["valid", "used"]).toContain(row.Status);
      expect(Date.parse(row.IssuedAt)).toBeGreaterThanOrEqual(since.getTime());
      expect(row.Source === "shop" || row.Vendor !== null).toBe(true);
    }
    const times = rows.map((r) => Date.parse(r.IssuedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("escapes quotes so a hostile value is one literal that matches nothing", async () => {
    const rows = [];
    const q = odata("Tickets").filter((f) => f.eq("HolderName", "x' or HolderName ne 'x"));
    for await (const row of bi.rows(q)) rows.push(row);
    expect(rows).toEqual([]);
  });

  it("honours $top across pages and the decimal literal form", async () => {
    const rows = [];
    for await (const row of bi.rows(
      odata("Orders")
        .filter((f) => f.gt("TotalAmount", 10.5))
        .top(300),
    )) {
      rows.push(row);
    }
    expect(rows).toHaveLength(300);
    expect(rows.every((r) => r.TotalAmount > 10.5)).toBe(true);
  });

  it("surfaces the server's OData errors as ODataError", async () => {
    const err = await (async () => {
      for await (const _ of bi.rows(odata("Tickets").filter("Foo eq 1"))) {
        // unreachable
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ODataError);
    expect(err).toMatchObject({ status: 400, code: "UnknownProperty", target: "$filter" });
  });

  it("exports a dataset to CSV with one record per row", async () => {
    const progress: number[] = [];
    const csv = await new Response(
      bi.exportStream(odata("Payments").select("PaymentId", "Status", "Amount").count(), {
        format: "csv",
        onProgress: (p) => progress.push(p.rows),
      }),
    ).text();
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("PaymentId,Status,Amount");
    expect(lines.at(-1)).toBe("");
    expect(lines.length - 2).toBe(progress.at(-1));
    expect(lines.slice(1, -1).every((l) => /^pay_\w+,[a-z_]+,\d+(\.\d+)?$/.test(l))).toBe(true);
  });
});
