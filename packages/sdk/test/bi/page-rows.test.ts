import { describe, expect, it } from "vitest";
import { biFeed, ODataError, odata } from "../../src/bi/index.ts";
import { pageRows } from "../../src/bi/page-rows.ts";
import { fakeFeed, tickets } from "./fake-feed.ts";

const utf8 = new TextEncoder();
const all = (split: NonNullable<ReturnType<typeof pageRows>>) => [...split.batches()];

describe("a page read in batches of rows", () => {
  it("cuts the value array after a row once a batch has batchBytes, and keeps the other members", () => {
    const rows = tickets(50);
    const body = utf8.encode(
      JSON.stringify({ "@odata.context": "ctx", "@odata.count": 50, value: rows, "@odata.nextLink": "n" }),
    );
    const split = pageRows(body, 1000);
    expect(split?.envelope).toEqual({
      "@odata.context": "ctx",
      "@odata.count": 50,
      value: [],
      "@odata.nextLink": "n",
    });
    const batches = all(split as NonNullable<typeof split>);
    expect(batches.flat()).toEqual(rows);
    // Each row is about 450 bytes: a batch ends with the first row past 1,000 bytes.
    expect(batches.length).toBeGreaterThan(10);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(3);
  });

  it("is not fooled by brackets, braces, quotes and a `value` key inside strings, whitespace, or other arrays", () => {
    const text = `
      { "@odata.context" : "a [weird] {context} \\"value\\":[" ,
        "@x.list": [ { "value": [1] }, "]" ],
        "value" :
          [ { "Name": "}]{[", "Esc": "back\\\\slash\\"q", "Nested": { "value": [ {"a": 1} ] } } ,
            { "Name": "ünïcödé ✓", "Esc": null, "Nested": [] } ] ,
        "@odata.nextLink": "https://x/next?a=[1]" }`;
    const split = pageRows(utf8.encode(text), 1);
    expect(split?.envelope).toEqual({
      "@odata.context": 'a [weird] {context} "value":[',
      "@x.list": [{ value: [1] }, "]"],
      value: [],
      "@odata.nextLink": "https://x/next?a=[1]",
    });
    expect(all(split as NonNullable<typeof split>)).toEqual([
      [{ Name: "}]{[", Esc: 'back\\slash"q', Nested: { value: [{ a: 1 }] } }],
      [{ Name: "ünïcödé ✓", Esc: null, Nested: [] }],
    ]);
  });

  it("an empty value array yields no batch; bytes that are no page are refused", () => {
    const empty = pageRows(utf8.encode('{"value":[]}'));
    expect(empty && all(empty)).toEqual([]);
    for (const bad of ['{"value":[{"a":1}]', '{"rows":[]}', '[{"value":[]}]', '{"value":[]}}', "<html>", ""])
      expect(pageRows(utf8.encode(bad)), bad).toBeUndefined();
  });

  it("the feed turns a batch that is no JSON into an ODataError (invalid_response), like a page that is none", async () => {
    const fetch = async () =>
      new Response('{"value":[{"TicketId":"t1"},{"TicketId":tru}]}', {
        headers: { "content-type": "application/json" },
      });
    const bi = biFeed({ baseUrl: "https://api.test", fetch, maxAttempts: 1 });
    const error = await bi.page("https://api.test/bi/v1/odata/Tickets").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ODataError);
    expect(error).toMatchObject({ code: "invalid_response", status: 200 });
  });

  it("exports hand the encoder one batch at a time: every row once, in order, across pages", async () => {
    const rows = tickets(700);
    const feed = fakeFeed(rows);
    const bi = biFeed({ baseUrl: feed.origin, fetch: feed.fetch, maxPageSize: 300 });
    const seen: number[] = [];
    for await (const page of bi.batchedPages(odata("Tickets")))
      for (const b of page.batches()) seen.push(b.length);
    expect(seen.reduce((a, b) => a + b, 0)).toBe(700);
    // 300 rows of about 450 bytes are several 16 KiB batches.
    expect(seen.length).toBeGreaterThan(3);
    const text = await new Response(bi.exportStream(odata("Tickets"), { format: "ndjson" })).text();
    expect(
      text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(rows);
  });
});
