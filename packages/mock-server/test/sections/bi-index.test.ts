import { describe, expect, it } from "vitest";
import { countFeedRows, type FeedRows, findFeedRow, runFeedQuery } from "../../src/sections/bi/feed-query.ts";
import { HistoryIndex, type HistoryTable } from "../../src/sections/bi/history-index.ts";
import { entitySet, propertyTypes } from "../../src/sections/bi/model.ts";
import type { Row } from "../../src/sections/bi/odata/evaluate.ts";
import { parseFilter, parseOrderBy } from "../../src/sections/bi/odata/parser.ts";
import { indexPlan } from "../../src/sections/bi/odata/plan.ts";
import { type Page, parseEntitySetQuery, runQuery } from "../../src/sections/bi/odata/query.ts";
import { radixSortBy } from "../../src/sections/bi/radix-sort.ts";

const config = { seed: 4242, orders: 260, days: 365, anchor: Date.parse("2026-11-01T00:00:00Z") };
const index = new HistoryIndex(config);
const tickets = index.tables.find((t) => t.name === "Tickets") as HistoryTable;
const props = propertyTypes(entitySet("Tickets") as NonNullable<ReturnType<typeof entitySet>>);
const KEY = "TicketId";
const STAMP = { key: KEY, stamp: "ModifiedAt" };
const inStampOrder = [...tickets.byStamp].map((r) => tickets.row(r, "en-GB"));

/**
 * Live rows as the world adds them: a ticket changed at the very stamp of a history row (the key breaks the tie),
 * one between two history stamps, one after everything.
 */
const n = inStampOrder.length;
const live: Row[] = [Math.floor(n * 0.35), Math.floor(n * 0.35) + 1, n - 1].map((i, k) => {
  const base = inStampOrder[i] as Row;
  const at = k === 2 ? "2027-01-01T10:00:00.000Z" : (base.ModifiedAt as string);
  return { ...base, TicketId: `tkt_LIVE${k}`, OrderId: null, Status: "used", ModifiedAt: at };
});

type Walk = { rows: Row[][]; tokens: (string | null)[]; counts: (number | null)[] };

/** Every page of a query, following the skiptokens as a client follows nextLinks. */
function walk(query: Record<string, string>, run: (q: Record<string, string>) => Page): Walk {
  const out: Walk = { rows: [], tokens: [], counts: [] };
  let q = query;
  for (let n = 0; n < 1000; n++) {
    const page = run(q);
    out.rows.push(page.rows);
    out.tokens.push(page.nextSkipToken);
    out.counts.push(page.count);
    if (!page.nextSkipToken) return out;
    q = { ...query, $skiptoken: page.nextSkipToken };
  }
  throw new Error("paging did not end");
}

const parse = (q: Record<string, string>) => parseEntitySetQuery(q, props, KEY, "Tickets");
const generic = (rows: FeedRows, size: number) => (q: Record<string, string>) =>
  runQuery([...tickets.scan(rows.culture), ...rows.live], parse(q), KEY, size);
const indexed = (rows: FeedRows, size: number) => (q: Record<string, string>) =>
  runFeedQuery(rows, parse(q), KEY, size, props);

const mark = inStampOrder[Math.floor(n * 0.6)] as Row;
const QUERIES: Record<string, string>[] = [
  {},
  { $count: "true" },
  { $orderby: "TicketId", $select: "TicketId,Status" },
  { $orderby: "ModifiedAt,TicketId", $count: "true" },
  { $orderby: "ModifiedAt" },
  {
    // What an incremental export sends after its watermark.
    $filter: `ModifiedAt gt ${mark.ModifiedAt} or (ModifiedAt eq ${mark.ModifiedAt} and TicketId gt '${mark.TicketId}')`,
    $orderby: "ModifiedAt,TicketId",
    $count: "true",
  },
  { $filter: "ModifiedAt ge 2026-03-01 and ModifiedAt lt 2026-06-01T00:00:00Z", $orderby: "ModifiedAt" },
  { $filter: "2026-05-01T00:00:00Z le ModifiedAt", $orderby: "ModifiedAt", $top: "250", $count: "true" },
  {
    $filter: `ModifiedAt eq ${(inStampOrder[Math.floor(n * 0.35)] as Row).ModifiedAt}`,
    $orderby: "ModifiedAt,TicketId",
  },
  { $filter: "TicketId gt 'tkt_' and TicketId le 'xtk_'", $count: "true" },
  { $filter: `TicketId eq '${(inStampOrder[10] as Row).TicketId}'` },
  { $skip: "130", $top: "300" },
  { $orderby: "ModifiedAt", $skip: "5", $top: "60" },
];

describe("bi: the history index", () => {
  it("draws the same rows as a full pass, in key order and in (ModifiedAt, key) order", () => {
    const all = [...tickets.scan("fr-CH")];
    expect(all.length).toBe(tickets.size);
    expect(all.length).toBeGreaterThan(450);
    expect(all.map((_, r) => tickets.row(r, "fr-CH"))).toEqual(all);
    const keys = all.map((r) => r.TicketId as string);
    expect([...tickets.byKey].map((r) => keys[r])).toEqual([...keys].sort());
    const byStamp = [...all].sort(
      (a, b) =>
        Date.parse(a.ModifiedAt as string) - Date.parse(b.ModifiedAt as string) ||
        ((a.TicketId as string) < (b.TicketId as string) ? -1 : 1),
    );
    expect([...tickets.byStamp].map((r) => keys[r])).toEqual(byStamp.map((r) => r.TicketId));
    // Texts follow the culture the row is drawn in; everything else is the same row.
    const en = tickets.row(0, "en-GB");
    const de = tickets.row(0, "de-CH");
    expect(en.EventName).not.toBe(de.EventName);
    expect({ ...en, EventName: null, ArticleName: null }).toEqual({
      ...de,
      EventName: null,
      ArticleName: null,
    });
    expect(tickets.find(keys[17] as string, "en-GB")).toEqual(tickets.row(17, "en-GB"));
    expect(tickets.find("tkt_NOPE", "en-GB")).toBeUndefined();
  });

  it("keeps every dataset in the contract's column order with one ModifiedAt per row", () => {
    for (const table of index.tables) {
      const set = entitySet(table.name) as NonNullable<ReturnType<typeof entitySet>>;
      const row = table.row(table.byStamp[0] as number, "en-GB");
      expect(Object.keys(row)).toEqual(set.properties.map((p) => p.name));
      expect(table.size).toBeGreaterThan(0);
    }
  });
});

describe("bi: indexed paging answers exactly what the generic path answers", () => {
  for (const withLive of [false, true]) {
    for (const query of QUERIES) {
      const name =
        Object.entries(query)
          .map(([k, v]) => `${k}=${v}`)
          .join("&") || "(no options)";
      it(`${name}${withLive ? " + live rows" : ""}`, () => {
        const rows: FeedRows = { history: tickets, live: withLive ? live : [], culture: "en-GB" };
        const q = parse(query);
        // The query has a plan: the index serves it (not the generic path under test's comparison).
        expect(indexPlan(q.filterExpr, q.orderBy, STAMP)).not.toBeNull();
        const before = index.drawn;
        const got = walk(query, indexed(rows, 40));
        const pages = got.rows.length;
        const want = walk(query, generic(rows, 40));
        expect(got).toEqual(want);
        const total = want.rows.flat().length;
        expect(total).toBeGreaterThan(0);
        // Per page: the rows served and a few binary searches, not the history (~290 units per pass).
        if (!(withLive && query.$skip)) expect((index.drawn - before) / pages).toBeLessThan(40 + 80);
        // Pages that end exactly at (or just before) the last row: the next link must stop there too.
        for (const size of [Math.ceil(total / 2), Math.ceil(total / 3)])
          expect(walk(query, indexed(rows, size))).toEqual(walk(query, generic(rows, size)));
        expect(countFeedRows(rows, q, KEY, props)).toBe(
          [...tickets.scan("en-GB"), ...rows.live].filter((r) => !q.filter || q.filter(r)).length,
        );
      });
    }
  }

  it("answers queries without a plan on the generic path, live rows included", () => {
    const rows: FeedRows = { history: tickets, live, culture: "de-CH" };
    const query = { $filter: "Status eq 'used'", $orderby: "EventName desc,ModifiedAt", $count: "true" };
    expect(indexPlan(parse(query).filterExpr, parse(query).orderBy, STAMP)).toBeNull();
    const got = walk(query, indexed(rows, 500));
    expect(got).toEqual(walk(query, generic(rows, 500)));
    expect(got.rows.flat().some((r) => r.TicketId === "tkt_LIVE2")).toBe(true);
    expect(findFeedRow(rows, KEY, "tkt_LIVE1")).toBe(live[1]);
    expect(findFeedRow(rows, KEY, (inStampOrder[3] as Row).TicketId as string)).toEqual(
      tickets.row(tickets.byStamp[3] as number, "de-CH"),
    );
  });

  it("counts a filter no index answers over the kept columns, as the rows count it (dates, events, nulls, functions)", () => {
    const rows: FeedRows = { history: tickets, live, culture: "en-GB" };
    const event = (inStampOrder[7] as Row).EventId as string;
    for (const $filter of [
      `EventId eq '${event}' and Status ne 'cancelled'`,
      "IssuedAt ge 2026-06-01T00:00:00Z and IssuedAt lt 2026-07-01T00:00:00Z and Source eq 'shop'",
      "FirstAdmittedAt eq null or Status eq 'used'",
      "hour(FirstAdmittedAt) ge 18 and VenueTimeZone eq 'Europe/Zurich'",
      "startswith(TicketId, 'xtk_')",
    ]) {
      const q = parse({ $filter });
      expect(indexPlan(q.filterExpr, null, STAMP)).toBeNull();
      const want = [...tickets.scan("en-GB"), ...live].filter((r) => q.filter?.(r)).length;
      expect(want, $filter).toBeGreaterThan(0);
      expect(countFeedRows(rows, q, KEY, props), $filter).toBe(want);
    }
  });

  it("continues an incremental export after the watermark: the changed live rows, nothing twice", () => {
    const rows: FeedRows = { history: tickets, live, culture: "en-GB" };
    const all = walk({ $orderby: "ModifiedAt,TicketId" }, indexed(rows, 100)).rows.flat();
    const last = all.at(-2) as Row; // the last history row in feed order (the live row after it is later)
    const after = walk(
      {
        $filter: `ModifiedAt gt ${last.ModifiedAt} or (ModifiedAt eq ${last.ModifiedAt} and TicketId gt '${last.TicketId}')`,
        $orderby: "ModifiedAt,TicketId",
      },
      indexed(rows, 100),
    ).rows.flat();
    expect(after.map((r) => r.TicketId)).toEqual(["tkt_LIVE2"]);
    expect(new Set(all.map((r) => r.TicketId)).size).toBe(tickets.size + live.length);
  });
});

describe("bi: query plans", () => {
  const plan = (filter: string | null, orderBy: string | null) =>
    indexPlan(
      filter === null ? null : parseFilter(filter, props),
      orderBy === null ? null : orderBy === "" ? [] : parseOrderBy(orderBy, props),
      STAMP,
    );
  it("recognises key order, (ModifiedAt, key) order and range conditions on their leading property", () => {
    expect(plan(null, "")?.order).toBe("key");
    expect(plan(null, "TicketId asc,Status")?.order).toBe("key");
    expect(plan(null, "ModifiedAt asc,TicketId")?.order).toBe("stamp");
    expect(plan("ModifiedAt gt 2026-01-01T00:00:00Z", null)?.order).toBe("stamp");
    expect(plan("TicketId ge 'tkt_'", null)?.order).toBe("key");
    expect(plan("ModifiedAt eq 2026-01-01T00:00:00Z", "ModifiedAt")?.searches).toHaveLength(2);
    expect(
      plan(
        "ModifiedAt ge 2026-01-01T00:00:00Z or (ModifiedAt eq 2026-01-01T00:00:00Z and TicketId ge 'x')",
        "ModifiedAt",
      )?.searches,
    ).toHaveLength(1);
  });
  it("leaves everything else to the generic path", () => {
    for (const [filter, orderBy] of [
      [null, "ModifiedAt desc"],
      [null, "ModifiedAt,Status"],
      [null, "Status"],
      ["ModifiedAt gt 2026-01-01T00:00:00Z", ""], // a stamp range in key order
      ["TicketId gt 'a'", "ModifiedAt"],
      ["ModifiedAt ne 2026-01-01T00:00:00Z", "ModifiedAt"],
      ["ModifiedAt gt null", "ModifiedAt"],
      ["Status eq 'used' and ModifiedAt gt 2026-01-01T00:00:00Z", "ModifiedAt"],
      ["ModifiedAt gt 2026-01-01T00:00:00Z or ModifiedAt lt 2025-01-01", "ModifiedAt"],
      [
        "ModifiedAt gt 2026-01-02T00:00:00Z or (ModifiedAt eq 2026-01-01T00:00:00Z and TicketId gt 'x')",
        "ModifiedAt",
      ],
      ["not (ModifiedAt gt 2026-01-01T00:00:00Z)", "ModifiedAt"],
    ] as const)
      expect(plan(filter, orderBy), `${filter} / ${orderBy}`).toBeNull();
  });
});

describe("radixSortBy", () => {
  it("orders row numbers by a column, stably, like a comparison sort", () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (const scale of [3, 70_000, 2 ** 40, 2 ** 52]) {
      const value = Float64Array.from({ length: 5000 }, () => Math.floor(rand() * scale));
      const order = Uint32Array.from({ length: value.length }, (_, i) => value.length - 1 - i);
      const expected = [...order].sort((a, b) => (value[a] as number) - (value[b] as number));
      radixSortBy(order, value);
      expect([...order]).toEqual(expected);
    }
  });
});
