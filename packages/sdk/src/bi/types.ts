/**
 * The BI feed's types, a leaf of the import graph: what a page and an export look like, and the page source an
 * export reads (`BiFeed` is one). The feed, the exports and the encoders import from here, never from each other
 * for a type.
 */

import type { BiSchema } from "./csdl.ts";
import type { BiEntitySet, BiProperty } from "./metadata.ts";
import type { ParquetEncoderOptions } from "./parquet.ts";
import type { ODataQuery } from "./query.ts";

export interface BiRequestOptions {
  /** Page size for this call (`Prefer: odata.maxpagesize`). */
  maxPageSize?: number;
  signal?: AbortSignal;
}

/** One page of a dataset. */
export interface ODataPage<Row> {
  value: Row[];
  /** `@odata.count`, present when the query asked for `count()` (on the first page at least). */
  count: number | undefined;
  /** Absolute URL of the next page, if any. */
  nextLink: string | undefined;
  /** `@odata.context`. */
  context: string | undefined;
  /** Size of the page's JSON in bytes. */
  bytes: number;
}

/** One page whose rows are parsed batch by batch, as `batches()` is read (`batchedPages()`). */
export interface ODataPageBatches<Row> extends Omit<ODataPage<Row>, "value"> {
  batches(): Generator<Row[], void, undefined>;
}

/** The row type a query yields. */
export type RowOf<Q> = Q extends ODataQuery<infer _S, infer _K> ? NonNullable<Q["__row"]> : never;

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

/**
 * Where an export reads from: the pages of a query, their rows parsed batch by batch, and the datasets' columns
 * (Parquet). `BiFeed` is one; a test or a cache may be another.
 */
export interface BiPageSource {
  batchedPages<S extends BiEntitySet, K extends BiProperty<S>>(
    query: ODataQuery<S, K>,
    options?: BiRequestOptions,
  ): AsyncGenerator<ODataPageBatches<RowOf<ODataQuery<S, K>>>, void, undefined>;
  schema(options?: Pick<BiRequestOptions, "signal">): Promise<BiSchema>;
}
