import type { BiExportOptions, BiExportProgress } from "./export.ts";
import type { BiFeed } from "./feed.ts";
import type { BiEntitySet, BiProperty } from "./metadata.ts";
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
  const pages = feed.pages(query, options);
  let encoder: ParquetEncoder;
  const progress: BiExportProgress = { rows: 0, pages: 0, bytes: 0, total: undefined };
  return new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      // Loaded on first use: the writer (about 16 KB gzip) stays out of NDJSON/CSV exports and of start-up.
      async start() {
        const { ParquetEncoder } = await import("./parquet.ts");
        encoder = new ParquetEncoder(query.entitySet, query.selected, options.parquet);
      },
      async pull(controller) {
        for (;;) {
          const next = await pages.next();
          if (next.done) {
            const tail = encoder.finish();
            progress.bytes += tail.length;
            options.onProgress?.({ ...progress });
            controller.enqueue(tail);
            controller.close();
            return;
          }
          const page = next.value;
          encoder.push(page.value as Record<string, unknown>[]);
          progress.pages++;
          progress.rows += page.value.length;
          if (page.count !== undefined) progress.total = page.count;
          const chunk = encoder.take();
          progress.bytes += chunk.length;
          options.onProgress?.({ ...progress });
          if (chunk.length) {
            controller.enqueue(chunk);
            return;
          }
        }
      },
      async cancel() {
        await pages.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
