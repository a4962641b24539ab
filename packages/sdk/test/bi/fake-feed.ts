/** A fake OData feed for tests: pages `rows` by `Prefer: odata.maxpagesize`, with absolute skiptoken next links. */
export interface FakeFeedCall {
  url: URL;
  headers: Headers;
}

export function fakeFeed(
  rows: Record<string, unknown>[],
  options: { origin?: string; defaultPageSize?: number; nextOrigin?: string } = {},
) {
  const origin = options.origin ?? "https://api.test";
  const calls: FakeFeedCall[] = [];
  const fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const url = new URL(input);
    const headers = new Headers(init.headers);
    calls.push({ url, headers });
    const prefer = /odata\.maxpagesize=(\d+)/.exec(headers.get("prefer") ?? "");
    const size = prefer ? Number(prefer[1]) : (options.defaultPageSize ?? 2);
    const skip = Number(url.searchParams.get("$skiptoken") ?? 0);
    const select = url.searchParams.get("$select")?.split(",");
    const page = rows
      .slice(skip, skip + size)
      .map((r) => (select ? Object.fromEntries(select.map((k) => [k, r[k]])) : r));
    const body: Record<string, unknown> = {
      "@odata.context": `${origin}/bi/v1/odata/$metadata#${url.pathname.split("/").pop()}`,
    };
    if (url.searchParams.get("$count") === "true") body["@odata.count"] = rows.length;
    body.value = page;
    if (skip + size < rows.length) {
      const next = new URL(url.href.replace(origin, options.nextOrigin ?? origin));
      next.searchParams.set("$skiptoken", String(skip + size));
      body["@odata.nextLink"] = next.href;
    }
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { "content-type": "application/json;odata.metadata=minimal", "odata-version": "4.01" },
    });
  };
  return { fetch, calls, origin };
}

export const tickets = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    TicketId: `tkt_${i}`,
    Source: i % 7 === 6 ? "external" : "shop",
    Vendor: i % 7 === 6 ? "eventbrite" : null,
    OrderId: i % 7 === 6 ? null : `ord_${Math.floor(i / 3)}`,
    EventId: "evt_1",
    EventName: "Winterkonzert, 2026",
    SlotId: "slt_1",
    SlotStartsAt: "2026-12-05T19:00:00Z",
    ArticleId: "art_1",
    ArticleName: "Stehplatz Erwachsene",
    PriceAmount: i % 2 ? 45 : 12.5,
    Currency: "CHF",
    HolderName: i === 1 ? 'Anna "Nana", Müller\nZürich' : `Holder ${i}`,
    Status: i % 5 === 0 ? "used" : "valid",
    IssuedAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
    FirstAdmittedAt: i % 5 === 0 ? "2026-12-05T18:02:41Z" : null,
  }));
