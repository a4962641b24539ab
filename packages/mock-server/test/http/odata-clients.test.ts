import { OData } from "@odata/client";
import { o } from "odata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, bodyOf, startApi } from "../helpers.ts";

/**
 * The BI feed as two independent, generic OData client libraries use it, over real HTTP with response validation
 * on: o.js (`odata`) follows the server's `@odata.nextLink` paging and reads `/{set}/$count`; `@odata/client`
 * pages with `$top`/`$skip`, counts with `$count=true` and looks rows up by key.
 */
const SETS = [
  ["Orders", "OrderId"],
  ["Tickets", "TicketId"],
  ["Payments", "PaymentId"],
  ["Entrances", "ScanId"],
] as const;

let api: Api;
let root: string;
let auth: Record<string, string>;
beforeAll(async () => {
  api = await startApi();
  root = `${api.url}/bi/v1/odata/`;
  auth = { authorization: `Bearer ${await api.token("Shop")}` };
});
afterAll(() => api.close());

type Row = Record<string, unknown>;

describe("o.js (odata): server-driven paging to the end, /$count", () => {
  it.each(SETS)("%s: every page via @odata.nextLink, as many rows as /$count says", async (set, key) => {
    const config = { headers: { ...auth, prefer: "odata.maxpagesize=700" }, fragment: "" };
    const count = Number(
      await (await (o(root, config).get(`${set}/$count`).fetch() as Promise<Response>)).text(),
    );
    expect(count).toBeGreaterThan(0);
    const rows: Row[] = [];
    let page = (await o(root, config).get(set).query({ $orderby: key })) as {
      value: Row[];
      "@odata.nextLink"?: string;
    };
    let pages = 1;
    rows.push(...page.value);
    while (page["@odata.nextLink"]) {
      const next = new URL(page["@odata.nextLink"]);
      page = (await o(`${next.origin}${next.pathname.replace(/[^/]+$/, "")}`, config)
        .get(next.pathname.split("/").pop() as string)
        .query(next.search.slice(1))) as typeof page;
      rows.push(...page.value);
      pages++;
    }
    expect(rows.length).toBe(count);
    expect(new Set(rows.map((r) => r[key])).size).toBe(count);
    expect(pages).toBe(Math.ceil(count / 700));
  });

  it("counts with $filter, the same number as the filtered collection's @odata.count", async () => {
    const config = { headers: auth, fragment: "" };
    const filter = "Status eq 'failed'";
    const count = Number(
      await (
        await (o(root, config).get("Payments/$count").fetch({ $filter: filter }) as Promise<Response>)
      ).text(),
    );
    const page = (await o(root, config)
      .get("Payments")
      .query({ $filter: filter, $count: true, $top: 0 })) as Row;
    expect(count).toBeGreaterThan(0);
    expect(page["@odata.count"]).toBe(count);
  });
});

describe("@odata/client: client-driven $top/$skip paging to the end, $count=true, key lookup", () => {
  const client = () => OData.New4({ serviceEndpoint: root, commonHeaders: auth });

  it.each(SETS)("%s: $top/$skip pages until a short page, as many rows as its count()", async (set, key) => {
    const entitySet = client().getEntitySet<Row>(set);
    const count = await entitySet.count();
    const rows: Row[] = [];
    for (let skip = 0; ; skip += 900) {
      const page = await entitySet.query(OData.newParam().orderby(key).top(900).skip(skip));
      rows.push(...page);
      if (page.length < 900) break;
    }
    expect(rows.length).toBe(count);
    expect(new Set(rows.map((r) => r[key])).size).toBe(count);
    // Key lookup of the first and last rows returns the same row.
    for (const row of [rows[0], rows[rows.length - 1]] as Row[]) {
      expect(await entitySet.retrieve(row[key] as string)).toMatchObject(row);
    }
  });

  it("failed and cancelled payments carry the cart's real amount, as a live declined card does", async () => {
    const payments = client().getEntitySet<Row>("Payments");
    const unpaid = await payments.query(
      OData.newParam().filter("Status ne 'succeeded' and Status ne 'refunded'"),
    );
    expect(new Set(unpaid.map((p) => p.Status))).toEqual(new Set(["failed", "cancelled", "expired"]));
    expect(unpaid.every((p) => typeof p.Amount === "number" && p.Amount > 0)).toBe(true);
  });
});

describe("the feed's addressing as a generic client sends it", () => {
  it("answers key lookups by quoted or named key, 404 for unknown keys and sets, 501 for $expand", async () => {
    const get = (path: string, headers: Record<string, string> = {}) =>
      api.fetch(`/bi/v1/odata/${path}`, { headers: { ...auth, ...headers } });
    const [first] = (await bodyOf(await get("Orders?$top=1&$orderby=OrderId"), "listBiOrders")).value;
    const id = first?.OrderId ?? "";
    const quoted = await get(`Orders('${id}')`);
    expect(quoted.status).toBe(200);
    expect(await quoted.json()).toEqual({ "@odata.context": `${root}$metadata#Orders/$entity`, ...first });
    const named = await (await get(`Orders(OrderId='${id}')?$select=OrderId,TotalAmount`)).json();
    expect(named).toEqual({
      "@odata.context": `${root}$metadata#Orders(OrderId,TotalAmount)/$entity`,
      OrderId: id,
      TotalAmount: first?.TotalAmount,
    });
    const missing = await get("Orders('ord_nope')");
    expect([missing.status, (await missing.json()).error.message]).toEqual([
      404,
      "'Orders' has no row with the key 'ord_nope'.",
    ]);
    expect((await get("Shipments/$count")).status).toBe(404);
    expect((await get("Shipments('x')")).status).toBe(404);
    const badKey = await get("Orders(ord_1)");
    expect([badKey.status, (await badKey.json()).error.message]).toEqual([
      400,
      "'ord_1' is not a key; write ('value') or (OrderId='value'), with quotes inside doubled.",
    ]);
    const expand = await get(`Orders('${id}')?$expand=Tickets`);
    expect([expand.status, (await expand.json()).error.code]).toEqual([501, "NotImplemented"]);
    const count = await get("Orders/$count");
    expect([count.status, count.headers.get("content-type")]).toEqual([200, "text/plain; charset=utf-8"]);
  });

  it("speaks English without Accept-Language or with *, and the named culture when asked", async () => {
    const names = async (headers: Record<string, string>) => {
      const res = await api.fetch("/bi/v1/odata/Entrances?$top=1&$select=GateName&$orderby=ScanId", {
        headers: { ...auth, ...headers },
      });
      return [res.headers.get("content-language"), (await bodyOf(res, "listBiEntrances")).value[0]?.GateName];
    };
    const english = await names({});
    expect(english[0]).toBe("en-GB");
    expect(await names({ "accept-language": "*" })).toEqual(english);
    const french = await names({ "accept-language": "fr-CH" });
    expect(french[0]).toBe("fr-CH");
    expect(french[1]).not.toBe(english[1]);
    expect(await names({ "accept-language": "fr" })).toEqual(french);
  });
});
