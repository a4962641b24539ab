import type { BiExportOptions } from "./export.ts";
import type { BiFeed } from "./feed.ts";
import type { BiEntitySet, BiProperty } from "./metadata.ts";
import { pageByteStream } from "./page-stream.ts";
import type { ParquetEncoder } from "./parquet.ts";
import type { ODataQuery } from "./query.ts";

/**
 * A dataset as one Parquet file, streamed: pages are fetched as the consumer reads, rows are buffered up to one
 * row group, and each finished row group is emitted as bytes (the footer comes last). Columns are the query's
 * `$select`, else every property of the dataset in `$metadata` order.
 */
export function parquetExportStream<S extends BiEntitySet, K extends BiProperty<S>>(
  feed: BiFeed,
  query: ODataQuery<S, K>,
  options: BiExportOptions,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  let encoder: ParquetEncoder;
  return pageByteStream(
    feed.pages(query, options),
    {
      // Loaded on first use: the writer (about 16 KB gzip) stays out of NDJSON/CSV exports and of start-up.
      async start() {
        const { ParquetEncoder } = await import("./parquet.ts");
        encoder = new ParquetEncoder(query.entitySet, query.selected, options.parquet);
      },
      page(rows) {
        encoder.push(rows as Record<string, unknown>[]);
        return encoder.take();
      },
      end: () => encoder.finish(),
    },
    options.onProgress,
  );
}
