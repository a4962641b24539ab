import { describe, expect, it } from "vitest";
import bi from "../../src/sections/bi/index.ts";
import entrance from "../../src/sections/entrance/index.ts";
import externalEntrance from "../../src/sections/external-entrance/index.ts";
import { read } from "../helpers.ts";
import { fakeShop, harness } from "./context.ts";

type Row = Record<string, unknown>;
const BASE = "http://127.0.0.1:4010/bi/v1/odata";

function list(query: Record<string, string>, set = "Tickets") {
  const h = harness([entrance, externalEntrance, bi], { slices: fakeShop(), seed: {} });
  const search = new URLSearchParams(query).toString().replace(/%24/g, "$");
  return h.call(bi, `listBi${set}`, {
    query,
    headers: { prefer: "odata.maxpagesize=5000" },
    url: `${BASE}/${set}${search ? `?${search}` : ""}`,
  });
}

const ms = (v: unknown) => Date.parse(v as string);

describe("bi: the ModifiedAt change stamp", () => {
  it("is on every row of every dataset, never before the row's own instants", async () => {
    const own: Record<string, string[]> = {
      Orders: ["CreatedAt"],
      Tickets: ["IssuedAt", "FirstAdmittedAt"],
      Payments: ["CreatedAt", "CompletedAt"],
      Entrances: ["ScannedAt"],
    };
    for (const [set, instants] of Object.entries(own)) {
      const rows = read.odataRows((await list({}, set)).body);
      expect(rows.length, set).toBeGreaterThan(100);
      for (const row of rows) {
        expect(typeof row.ModifiedAt, set).toBe("string");
        for (const name of instants)
          if (row[name] !== null) expect(ms(row.ModifiedAt)).toBeGreaterThanOrEqual(ms(row[name]));
      }
    }
  });

  it("filters and sorts like any DateTimeOffset (the keyset an incremental export uses)", async () => {
    const all = read.odataRows((await list({ $orderby: "ModifiedAt,TicketId" })).body);
    for (let i = 1; i < all.length; i++)
      expect(ms(all[i]?.ModifiedAt)).toBeGreaterThanOrEqual(ms(all[i - 1]?.ModifiedAt));
    const mark = all[Math.floor(all.length / 2)] as Row;
    const after = read.odataRows(
      (
        await list({
          $filter: `ModifiedAt gt ${mark.ModifiedAt} or (ModifiedAt eq ${mark.ModifiedAt} and TicketId gt '${mark.TicketId}')`,
          $orderby: "ModifiedAt,TicketId",
        })
      ).body,
    );
    expect(after.map((r) => r.TicketId)).toEqual(
      all.slice(Math.floor(all.length / 2) + 1).map((r) => r.TicketId),
    );
  });
});
