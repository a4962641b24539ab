export { csvField, csvRecord } from "./csv.ts";
export type { DuckDbLoadOptions, DuckDbLoadResult } from "./duckdb.ts";
export { loadIntoDuckDb } from "./duckdb.ts";
export type { ODataErrorDetail } from "./errors.ts";
export { ODataError } from "./errors.ts";
export { exportStream, exportTo } from "./export.ts";
export type { BiFeedOptions, FetchLike } from "./feed.ts";
export { BiFeed, biFeed } from "./feed.ts";
export type { ODataFilterBuilder, ODataOperand } from "./filter.ts";
export { ODataFilter } from "./filter.ts";
export type {
  BiIncrementalResult,
  BiIncrementalState,
  BiStateErrorCode,
  BiStateIdentity,
  BiWatermark,
} from "./incremental.ts";
export {
  BiStateError,
  biKeys,
  CHANGE_STAMP,
  exportIncremental,
  incrementalQuery,
  newIncrementalState,
  readIncrementalState,
  WatermarkTracker,
} from "./incremental.ts";
export { formatLiteral } from "./literals.ts";
export type {
  BiEntitySet,
  BiEntitySets,
  BiFilterValue,
  BiProperty,
  BiRow,
  EntitySetSpec,
  ODataKind,
  ODataPropertySpec,
} from "./metadata.ts";
export { biEntitySets } from "./metadata.ts";
export type { ParquetEncoderOptions } from "./parquet.ts";
export { ParquetEncoder } from "./parquet.ts";
export { ODataQuery, odata } from "./query.ts";
export type {
  BiExportFormat,
  BiExportOptions,
  BiExportProgress,
  BiPageSource,
  BiRequestOptions,
  ODataPage,
  RowOf,
} from "./types.ts";
