import { type BiColumn, builtInColumns } from "../../src/bi/csdl.ts";
import { biEntitySets } from "../../src/bi/metadata.ts";

const EDM: Record<BiColumn["kind"], string> = {
  string: "Edm.String",
  guid: "Edm.Guid",
  int: "Edm.Int32",
  int64: "Edm.Int64",
  double: "Edm.Double",
  decimal: "Edm.Decimal",
  boolean: "Edm.Boolean",
  date: "Edm.Date",
  datetime: "Edm.DateTimeOffset",
  other: "Edm.Duration",
};

/** A JSON CSDL `$metadata` document of entity sets with the given columns (default: the SDK's four datasets). */
export function jsonCsdl(
  sets: Record<string, readonly BiColumn[]> = Object.fromEntries(
    Object.keys(biEntitySets).map((s) => [s, builtInColumns(s as keyof typeof biEntitySets)]),
  ),
): string {
  const ns: Record<string, unknown> = {};
  const container: Record<string, unknown> = { $Kind: "EntityContainer" };
  for (const [set, columns] of Object.entries(sets)) {
    const type: Record<string, unknown> = { $Kind: "EntityType", $Key: [columns[0]?.name] };
    for (const c of columns) {
      type[c.name] = {
        $Type: EDM[c.kind],
        ...(c.nullable ? { $Nullable: true } : {}),
        ...(c.precision !== undefined ? { $Precision: c.precision } : {}),
        ...(c.scale !== undefined ? { $Scale: c.scale } : {}),
      };
    }
    ns[`${set}Type`] = type;
    container[set] = { $Collection: true, $Type: `Test.${set}Type` };
  }
  ns.Container = container;
  return JSON.stringify({ $Version: "4.01", $EntityContainer: "Test.Container", Test: ns });
}

/**
 * A fake OData feed for tests: pages `rows` by `Prefer: odata.maxpagesize`, with absolute skiptoken next links;
 * `$metadata` answers `options.metadata` (default: the SDK's own datasets as JSON CSDL; `null`: 404).
 */
export interface FakeFeedCall {
  url: URL;
  headers: Headers;
}

export function fakeFeed(
  rows: Record<string, unknown>[],
  options: { origin?: string; defaultPageSize?: number; nextOrigin?: string; metadata?: string | null } = {},
) {
  const origin = options.origin ?? "https://api.test";
  const calls: FakeFeedCall[] = [];
  const fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const url = new URL(input);
    const headers = new Headers(init.headers);
    calls.push({ url, headers });
    if (url.pathname.endsWith("/$metadata")) {
      const metadata = options.metadata === undefined ? jsonCsdl() : options.metadata;
      if (metadata === null) {
        return Response.json({ error: { code: "not_found", message: "No $metadata here" } }, { status: 404 });
      }
      const xml = metadata.startsWith("<");
      return new Response(metadata, {
        headers: { "content-type": xml ? "application/xml" : "application/json" },
      });
    }
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

/**
 * A whole Parquet file from an encoder: `rows` pushed `batch` at a time, what each push produced taken right away
 * (as an export does), the footer last.
 */
export function encodeFile(
  encoder: { push(rows: Record<string, unknown>[]): void; take(): Uint8Array; finish(): Uint8Array },
  rows: Record<string, unknown>[],
  batch: number,
): ArrayBuffer {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < rows.length; i += batch) {
    encoder.push(rows.slice(i, i + batch));
    parts.push(encoder.take());
  }
  parts.push(encoder.finish());
  const file = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    file.set(p, at);
    at += p.length;
  }
  return file.buffer;
}
