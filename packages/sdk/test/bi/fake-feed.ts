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
    id: `tkt_${i}`,
    orderId: `ord_${Math.floor(i / 3)}`,
    eventId: "evt_1",
    slotId: "slt_1",
    articleId: "art_1",
    status: i % 5 === 0 ? "used" : "valid",
    holderName: i === 1 ? 'Anna "Nana", Müller\nZürich' : `Holder ${i}`,
    priceAmount: 4500,
    currency: "CHF",
    issuedAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
    eventDate: "2025-02-01",
  }));
