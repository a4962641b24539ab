import { loadIntoDuckDb } from "../bi/duckdb.ts";
import type { BiFeed } from "../bi/feed.ts";
import type { BiEntitySet } from "../bi/metadata.ts";
import type { ParquetEncoderOptions } from "../bi/parquet.ts";
import type { ODataQuery } from "../bi/query.ts";
import type { BiExportFormat, BiExportProgress } from "../bi/types.ts";
import { runIncrementalToFile } from "./incremental-file.ts";

/** What `entrada-bi-export` needs to know for a `--duckdb` or `--state` run. */
export interface WarehouseConfig {
  format: BiExportFormat;
  out: string;
  state: string | undefined;
  duckdb: string | undefined;
  full: boolean;
  parquet: Pick<ParquetEncoderOptions, "rowGroupSize" | "rowGroupBytes">;
}

/** Runs a `--duckdb` load or a `--state` incremental export; returns the final progress and a one-line summary. */
export async function runWarehouseTarget(
  config: WarehouseConfig,
  feed: BiFeed,
  query: ODataQuery<BiEntitySet, never>,
  signal: AbortSignal,
  onProgress: (p: BiExportProgress) => void,
  onWarning: (message: string) => void,
): Promise<{ progress: BiExportProgress; target: string; summary: string }> {
  if (config.duckdb) {
    let last: BiExportProgress = { rows: 0, pages: 0, bytes: 0, total: undefined };
    const result = await loadIntoDuckDb(feed, query, {
      database: config.duckdb,
      full: config.full,
      signal,
      onWarning,
      onProgress: (p) => {
        last = { rows: p.rows, pages: p.pages, bytes: 0, total: p.total };
        onProgress(last);
      },
    });
    return {
      progress: last,
      target: `${config.duckdb} (table ${result.table})`,
      summary: `upserted ${result.rows} rows; ${result.table} holds ${result.tableRows}; watermark ${
        result.watermark ? `${result.watermark.modifiedAt} ${result.watermark.key}` : "none"
      }`,
    };
  }
  const result = await runIncrementalToFile({
    feed,
    query,
    out: config.out,
    statePath: config.state as string,
    gzip: config.out.endsWith(".gz"),
    options: { format: config.format, signal, onProgress, onWarning, parquet: config.parquet },
  });
  const mark = result.state.watermark;
  return {
    progress: result.progress,
    target: config.out,
    summary: `${result.rolledForward ? "finished the interrupted previous run first; " : ""}${
      result.removedPartial ? `removed ${result.removedPartial}, left half-written by a stopped run; ` : ""
    }state ${config.state}: ${
      result.state.rows
    } rows over ${result.state.runs} runs, watermark ${mark ? `${mark.modifiedAt} ${mark.key}` : "none"}`,
  };
}
