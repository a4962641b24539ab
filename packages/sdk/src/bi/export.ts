import { csvField, csvRecord } from "./csv.ts";
import { type BiEntitySet, type BiProperty, biEntitySets } from "./metadata.ts";
import { pageByteStream, type RowObserver } from "./page-stream.ts";
import { parquetExportStream } from "./parquet-export.ts";
import type { ODataQuery } from "./query.ts";
import type { BiExportOptions, BiExportProgress, BiPageSource } from "./types.ts";

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
  source: BiPageSource,
  query: ODataQuery<S, K>,
  options: BiExportOptions,
  observe?: RowObserver,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const { format, onProgress } = options;
  if (format === "parquet") return parquetExportStream(source, query, options, observe);
  if (format !== "ndjson" && format !== "csv")
    throw new TypeError(`Unknown export format "${String(format)}"`);
  let columns: readonly string[] | undefined = query.selected;
  let headerWritten = false;

  const header = (): string => {
    headerWritten = true;
    return `${(columns as readonly string[]).map(csvField).join(",")}\r\n`;
  };

  return pageByteStream(
    source.batchedPages(query, options),
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
  source: BiPageSource,
  query: ODataQuery<S, K>,
  destination: WritableStream<Uint8Array>,
  options: BiExportOptions,
): Promise<BiExportProgress> {
  let last: BiExportProgress = { rows: 0, pages: 0, bytes: 0, total: undefined };
  const onProgress = (p: BiExportProgress) => {
    last = p;
    options.onProgress?.(p);
  };
  await exportStream(source, query, { ...options, onProgress }).pipeTo(
    destination,
    options.signal ? { signal: options.signal } : {},
  );
  return last;
}
