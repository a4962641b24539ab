import type { BiColumn } from "./csdl.ts";
import type { BiExportOptions } from "./export.ts";
import type { BiFeed } from "./feed.ts";
import type { BiEntitySet, BiProperty } from "./metadata.ts";
import { pageByteStream, type RowObserver } from "./page-stream.ts";
import type { ParquetEncoder } from "./parquet.ts";
import type { ODataQuery } from "./query.ts";

/**
 * The dataset's columns for a typed export: from the feed's `$metadata`, so a column the server added or retyped
 * is written as the server describes it. Only when `$metadata` cannot be read (or lacks the dataset) the SDK's
 * built-in copy is used, with a warning.
 */
async function datasetColumns(
  feed: BiFeed,
  set: BiEntitySet,
  options: BiExportOptions,
): Promise<readonly BiColumn[]> {
  if (options.parquet?.schema) return options.parquet.schema;
  const warn = options.onWarning ?? ((message: string) => console.warn(`@entrada/sdk: ${message}`));
  let reason: string;
  try {
    const columns = (await feed.schema({ signal: options.signal }))[set];
    if (columns?.length) return columns;
    reason = `it does not describe the dataset ${set}`;
  } catch (e) {
    if (options.signal?.aborted) throw e;
    reason = (e as Error)?.message ?? String(e);
  }
  warn(
    `the feed's $metadata could not be read (${reason}); the Parquet columns follow the SDK's built-in copy of ${set}`,
  );
  const { builtInColumns } = await import("./csdl.ts");
  return builtInColumns(set);
}

/**
 * A dataset as one Parquet file, streamed: pages are fetched as the consumer reads, rows are buffered up to one
 * row group (bounded by rows and by bytes), and each finished row group is emitted as bytes (the footer comes
 * last). Columns are the query's `$select`, else every property of the dataset in `$metadata` order.
 */
export function parquetExportStream<S extends BiEntitySet, K extends BiProperty<S>>(
  feed: BiFeed,
  query: ODataQuery<S, K>,
  options: BiExportOptions,
  observe?: RowObserver,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  let encoder: ParquetEncoder;
  return pageByteStream(
    feed.batchedPages(query, options),
    {
      async start() {
        // The writer (about 16 KB gzip) is loaded on first use: it stays out of NDJSON/CSV exports and start-up.
        const [{ ParquetEncoder }, schema] = await Promise.all([
          import("./parquet.ts"),
          datasetColumns(feed, query.entitySet, options),
        ]);
        encoder = new ParquetEncoder(query.entitySet, query.selected, { ...options.parquet, schema });
      },
      rows(rows) {
        encoder.push(rows as Record<string, unknown>[]);
        return encoder.take();
      },
      end: () => encoder.finish(),
    },
    options.onProgress,
    observe,
  );
}
