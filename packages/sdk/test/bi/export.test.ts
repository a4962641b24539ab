import { describe, expect, it } from "vitest";
import { type BiExportProgress, biFeed, csvField, odata } from "../../src/bi/index.ts";
import { settle } from "../helpers.ts";
import { fakeFeed, tickets } from "./fake-feed.ts";

const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

/** Minimal RFC 4180 parser, to check our output round-trips. */
function parseCsv(input: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\r" && input[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field || record.length) throw new Error("unterminated record");
  return records;
}

describe("BI export", () => {
  it("quotes CSV fields per RFC 4180", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField("cr\rx")).toBe('"cr\rx"');
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField(0)).toBe("0");
    expect(csvField(false)).toBe("false");
    expect(csvField({ amount: 1, currency: "CHF" })).toBe('"{""amount"":1,""currency"":""CHF""}"');
  });

  it("exports NDJSON, one object per line, across pages", async () => {
    const rows = tickets(5);
    const feed = fakeFeed(rows);
    const bi = biFeed({ baseUrl: feed.origin, fetch: feed.fetch, accessToken: "t", maxPageSize: 2 });
    const out = await text(bi.exportStream(odata("Tickets"), { format: "ndjson" }));
    expect(out.endsWith("\n")).toBe(true);
    expect(
      out
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(rows);
  });

  it("exports CSV with a header from $select, in select order, that round-trips", async () => {
    const rows = tickets(4);
    const feed = fakeFeed(rows);
    const bi = biFeed({ baseUrl: feed.origin, fetch: feed.fetch, accessToken: "t", maxPageSize: 3 });
    const out = await text(
      bi.exportStream(odata("Tickets").select("HolderName", "TicketId", "PriceAmount"), { format: "csv" }),
    );
    expect(out.startsWith("HolderName,TicketId,PriceAmount\r\n")).toBe(true);
    expect(out).toContain('"Anna ""Nana"", Müller\nZürich",tkt_1,45\r\n');
    expect(parseCsv(out)).toEqual([
      ["HolderName", "TicketId", "PriceAmount"],
      ...rows.map((r) => [r.HolderName, r.TicketId, String(r.PriceAmount)]),
    ]);
  });

  it("orders first-row columns by $metadata, keeping properties the SDK does not know at the end", async () => {
    const row = { Status: "paid", Extra: 1, OrderId: "ord_1", CreatedAt: "2025-01-01T00:00:00Z" };
    const bi = biFeed({
      baseUrl: "https://api.test",
      fetch: async () => Response.json({ value: [row] }),
      accessToken: "t",
    });
    expect(await text(bi.exportStream(odata("Orders"), { format: "csv" }))).toBe(
      "OrderId,CreatedAt,Status,Extra\r\nord_1,2025-01-01T00:00:00Z,paid,1\r\n",
    );
  });

  it("takes the CSV header from the first row without $select, and writes one for an empty dataset", async () => {
    const rows = tickets(3);
    const feed = fakeFeed(rows);
    const bi = biFeed({ baseUrl: feed.origin, fetch: feed.fetch, accessToken: "t" });
    const parsed = parseCsv(await text(bi.exportStream(odata("Tickets"), { format: "csv" })));
    expect(parsed[0]).toEqual(Object.keys(rows[0] as object));
    expect(parsed).toHaveLength(4);

    const empty = fakeFeed([]);
    const bi2 = biFeed({ baseUrl: empty.origin, fetch: empty.fetch, accessToken: "t" });
    expect(await text(bi2.exportStream(odata("Orders"), { format: "csv" }))).toBe(
      "OrderId,CartId,CreatedAt,Status,Currency,TotalAmount,RefundedAmount,DiscountAmount,VoucherCode,TicketCount,PaymentProviderId," +
        "Channel,Culture,CustomerEmail,CustomerFirstName,CustomerLastName,CustomerCompany,ModifiedAt\r\n",
    );
    expect(await text(bi2.exportStream(odata("Orders").select("Status", "OrderId"), { format: "csv" }))).toBe(
      "Status,OrderId\r\n",
    );
    expect(await text(bi2.exportStream(odata("Orders"), { format: "ndjson" }))).toBe("");
  });

  it("reports progress per page with bytes written and the @odata.count total", async () => {
    const feed = fakeFeed(tickets(5));
    const bi = biFeed({ baseUrl: feed.origin, fetch: feed.fetch, accessToken: "t", maxPageSize: 2 });
    const events: BiExportProgress[] = [];
    const chunks: Uint8Array[] = [];
    const sink = new WritableStream<Uint8Array>({ write: (c) => void chunks.push(c) });
    const final = await bi.export(odata("Tickets").count(), sink, {
      format: "ndjson",
      onProgress: (p) => events.push(p),
    });
    const bytes = chunks.reduce((n, c) => n + c.length, 0);
    expect(events.map((e) => [e.rows, e.pages, e.total])).toEqual([
      [2, 1, 5],
      [4, 2, 5],
      [5, 3, 5],
    ]);
    expect(events.at(-1)?.bytes).toBe(bytes);
    expect(final).toEqual({ rows: 5, pages: 3, bytes, total: 5 });
    const noCount = await bi.export(odata("Tickets"), new WritableStream(), { format: "csv" });
    expect(noCount.total).toBeUndefined();
  });

  it("fetches lazily: a page is requested only when the reader wants more (constant memory)", async () => {
    const feed = fakeFeed(tickets(100));
    const bi = biFeed({ baseUrl: feed.origin, fetch: feed.fetch, accessToken: "t", maxPageSize: 10 });
    const reader = bi.exportStream(odata("Tickets"), { format: "ndjson" }).getReader();
    await settle();
    expect(feed.calls).toHaveLength(0);
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value).split("\n")).toHaveLength(11);
    await settle();
    expect(feed.calls).toHaveLength(1);
    await reader.read();
    expect(feed.calls).toHaveLength(2);
    await reader.cancel();
    await settle();
    expect(feed.calls).toHaveLength(2);
  });

  it("propagates feed errors into the stream", async () => {
    const bi = biFeed({
      baseUrl: "https://api.test",
      fetch: async () =>
        Response.json({ error: { code: "NotImplemented", message: "$apply" } }, { status: 501 }),
      accessToken: "t",
      maxAttempts: 1,
    });
    await expect(text(bi.exportStream(odata("Orders"), { format: "csv" }))).rejects.toMatchObject({
      code: "NotImplemented",
    });
    expect(() => bi.exportStream(odata("Orders"), { format: "xml" as "csv" })).toThrow(TypeError);
  });
});
