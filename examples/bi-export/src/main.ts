/**
 * Exports the BI feed's `Tickets` dataset to NDJSON with a typed OData query, one page in memory at a time.
 *
 *   pnpm start                                           # against the local mock (pnpm mock)
 *   ENTRADA_BASE_URL=https://api.entrada.dev ENTRADA_CLIENT_ID=… ENTRADA_CLIENT_SECRET=… pnpm start
 */

import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { Writable } from "node:stream";
import { createClient, EntradaError } from "@entrada/sdk";
import { type BiExportProgress, biFeed, ODataError, odata } from "@entrada/sdk/bi";

export interface BiExportExampleOptions {
  baseUrl: string;
  /** Client credentials with scope `Shop` (the BI feed's scope). */
  clientId: string;
  clientSecret: string;
  /** Tickets issued in the last `sinceDays` days. */
  sinceDays: number;
  /** NDJSON file to write; it appears only when complete (written as `<out>.partial`, then renamed). */
  out: string;
  /** Rows per page (`Prefer: odata.maxpagesize`); memory use is about one page. */
  pageSize: number;
  /** `Accept-Language` for textual values such as event and article names. */
  locale: string;
  /** Progress lines (default: standard error, so standard output stays clean). */
  log?: (line: string) => void;
}

/** The query: typed property names and literals, checked by the compiler against the contract's `BiTicket`. */
export function ticketsQuery(since: Date) {
  return odata("Tickets")
    .filter((f) => f.and(f.ge("IssuedAt", since), f.in("Status", ["valid", "used"])))
    .select(
      "TicketId",
      "OrderId",
      "EventId",
      "EventName",
      "ArticleName",
      "PriceAmount",
      "Currency",
      "Status",
      "IssuedAt",
    )
    .orderBy("IssuedAt", "asc")
    .count();
}

export interface BiExportExampleResult extends BiExportProgress {
  file: string;
  /** The `$filter` sent, for the same export with the CLI. */
  filter: string;
}

export async function main(options: BiExportExampleOptions): Promise<BiExportExampleResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const client = createClient({
    baseUrl: options.baseUrl,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scope: "Shop",
    userAgent: "entrada-example-bi-export",
  });
  // The feed asks the client for its cached token before every page, so a long export survives token renewal.
  const bi = biFeed({
    baseUrl: options.baseUrl,
    getToken: () => client.getAccessToken(),
    maxPageSize: options.pageSize,
    locale: options.locale,
  });

  const since = new Date(Date.now() - options.sinceDays * 86_400_000);
  const query = ticketsQuery(since);
  const file = resolve(options.out);
  const partial = `${file}.partial`;
  log(`Exporting Tickets?${decodeURIComponent(query.toString())}`);

  let progress: BiExportProgress;
  try {
    progress = await bi.export(query, Writable.toWeb(createWriteStream(partial)), {
      format: "ndjson",
      onProgress: ({ rows, pages, bytes, total }) => {
        const of =
          total === undefined ? "" : ` of ${total} (${total ? Math.round((rows / total) * 100) : 100}%)`;
        log(`page ${pages}: ${rows} rows${of}, ${(bytes / 1024).toFixed(0)} KiB`);
      },
    });
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  await rename(partial, file);
  log(`Wrote ${progress.rows} rows in ${progress.pages} pages to ${file}`);
  return { ...progress, file, filter: query.params().$filter ?? "" };
}

if (import.meta.main) {
  const env = process.env;
  const againstMock = !env.ENTRADA_BASE_URL;
  try {
    const clientId = env.ENTRADA_CLIENT_ID || (againstMock ? "entrada-demo" : "");
    const clientSecret = env.ENTRADA_CLIENT_SECRET || (againstMock ? "demo-secret" : "");
    if (!clientId || !clientSecret)
      throw new Error("Set ENTRADA_CLIENT_ID and ENTRADA_CLIENT_SECRET (scope Shop).");
    await main({
      baseUrl: env.ENTRADA_BASE_URL || "http://127.0.0.1:4010",
      clientId,
      clientSecret,
      sinceDays: Number(env.ENTRADA_SINCE_DAYS ?? 90),
      out: env.ENTRADA_OUT || "tickets.ndjson",
      pageSize: Number(env.ENTRADA_PAGE_SIZE ?? 1000),
      locale: env.ENTRADA_LOCALE || "en-GB",
    });
  } catch (error) {
    if (error instanceof ODataError) {
      console.error(`BI feed error ${error.status} ${error.code}: ${error.message} (${error.url})`);
    } else if (error instanceof EntradaError) {
      console.error(
        `${error.name} (${error.kind}, status ${error.status ?? "none"}, log id ${error.logId ?? "none"})`,
      );
    } else {
      console.error(error);
    }
    process.exitCode = 1;
  }
}
