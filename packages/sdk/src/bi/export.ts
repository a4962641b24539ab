import { csvField, csvRecord } from "./csv.ts";
import type { BiFeed, BiRequestOptions } from "./feed.ts";
import { type BiEntitySet, type BiProperty, biEntitySets } from "./metadata.ts";
import { pageByteStream, type RowObserver } from "./page-stream.ts";
import type { ParquetEncoderOptions } from "./parquet.ts";
import { parquetExportStream } from "./parquet-export.ts";
import type { ODataQuery } from "./query.ts";

export type BiExportFormat = "ndjson" | "csv" | "parquet";

export interface BiExportProgress {
  rows: number;
  pages: number;
  /** Bytes written to the output so far. */
  bytes: number;
  /** Total rows, when the query asked for `count()` and the server answered `@odata.count`. */
  total: number | undefined;
}

export interface BiExportOptions extends BiRequestOptions {
  format: BiExportFormat;
  /** Called after every page is encoded. */
  onProgress?: (progress: BiExportProgress) => void;
  /** Parquet only: row group bounds (rows, bytes), footer metadata, the columns (default: from `$metadata`). */
  parquet?: ParquetEncoderOptions;
  /**
   * Called with what the export could do only in part, e.g. a Parquet export whose `$metadata` could not be read
   * (its columns then follow the SDK's built-in copy). Default: `console.warn`.
   */
  onWarning?: (message: string) => void;
}

const encoder = new TextEncoder();

/**
 * CSV columns from the first row: its properties in `$metadata` order (JSON does not fix the order of keys, a
 * CSV file should), then any properties the SDK does not know yet, as they came.
 */
function orderColumns(set: BiEntitySet, row: object): string[] {
  const known = Object.keys(biEntitySets[set]);
  const keys = Object.keys(row);
  return [...known.filter((k) => keys.includes(k)), ...keys.filter((k) => !known.includes(k))];
}

/**
 * Streams a whole dataset as NDJSON (one JSON object per line), CSV (RFC 4180, CRLF, header row from `$select`,
 * else from the first row) or Parquet (typed columns, see `parquet.ts`). Pages are fetched only as the consumer
 * reads and their rows parsed a batch at a time, so memory stays at about one page's bytes.
 */
export function exportStream<S extends BiEntitySet, K extends BiProperty<S>>(
  feed: BiFeed,
  query: ODataQuery<S, K>,
  options: BiExportOptions,
  observe?: RowObserver,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const { format, onProgress } = options;
  if (format === "parquet") return parquetExportStream(feed, query, options, observe);
  if (format !== "ndjson" && format !== "csv")
    throw new TypeError(`Unknown export format "${String(format)}"`);
  let columns: readonly string[] | undefined = query.selected;
  let headerWritten = false;

  const header = (): string => {
    headerWritten = true;
    return `${(columns as readonly string[]).map(csvField).join(",")}\r\n`;
  };

  return pageByteStream(
    feed.batchedPages(query, options),
    {
      rows(rows) {
        let text = "";
        if (format === "ndjson") {
          for (const row of rows) text += `${JSON.stringify(row)}\n`;
        } else {
          if (!columns && rows.length) columns = orderColumns(query.entitySet, rows[0] as object);
          if (columns && !headerWritten) text += header();
          for (const row of rows)
            text += csvRecord(columns as readonly string[], row as Record<string, unknown>);
        }
        return encoder.encode(text);
      },
      end() {
        // An empty CSV export still gets its header: the selected columns, or all of the dataset's.
        if (format !== "csv" || headerWritten) return null;
        columns ??= Object.keys(biEntitySets[query.entitySet]);
        return encoder.encode(header());
      },
    },
    onProgress,
    observe,
  );
}

/** Writes a whole dataset to `destination` (e.g. `Writable.toWeb(fs.createWriteStream(path))`). */
export async function exportTo<S extends BiEntitySet, K extends BiProperty<S>>(
  feed: BiFeed,
  query: ODataQuery<S, K>,
  destination: WritableStream<Uint8Array>,
  options: BiExportOptions,
): Promise<BiExportProgress> {
  let last: BiExportProgress = { rows: 0, pages: 0, bytes: 0, total: undefined };
  const onProgress = (p: BiExportProgress) => {
    last = p;
    options.onProgress?.(p);
  };
  await exportStream(feed, query, { ...options, onProgress }).pipeTo(
    destination,
    options.signal ? { signal: options.signal } : {},
  );
  return last;
}
