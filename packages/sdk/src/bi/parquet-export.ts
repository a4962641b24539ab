import { datasetColumns } from "./dataset-columns.ts";
import type { BiEntitySet, BiProperty } from "./metadata.ts";
import { pageByteStream, type RowObserver } from "./page-stream.ts";
import type { ParquetEncoder } from "./parquet.ts";
import type { ODataQuery } from "./query.ts";
import type { BiExportOptions, BiPageSource } from "./types.ts";

/**
 * A dataset as one Parquet file, streamed: pages are fetched as the consumer reads, rows are buffered up to one
 * row group (bounded by rows and by bytes), and each finished row group is emitted as bytes (the footer comes
 * last). Columns are the query's `$select`, else every property of the dataset in `$metadata` order.
 */
export function parquetExportStream<S extends BiEntitySet, K extends BiProperty<S>>(
  source: BiPageSource,
  query: ODataQuery<S, K>,
  options: BiExportOptions,
  observe?: RowObserver,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  let encoder: ParquetEncoder;
  return pageByteStream(
    source.batchedPages(query, options),
    {
      async start() {
        // The writer is loaded on first use: it stays out of NDJSON/CSV exports and start-up.
        const [{ ParquetEncoder }, schema] = await Promise.all([
          import("./parquet.ts"),
          options.parquet?.schema ?? datasetColumns(source, query.entitySet, options),
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
