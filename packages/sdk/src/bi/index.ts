export { csvField, csvRecord } from "./csv.ts";
export type { ODataErrorDetail } from "./errors.ts";
export { ODataError } from "./errors.ts";
export type { BiExportFormat, BiExportOptions, BiExportProgress } from "./export.ts";
export { exportStream, exportTo } from "./export.ts";
export type { BiFeedOptions, BiRequestOptions, FetchLike, ODataPage, RowOf } from "./feed.ts";
export { BiFeed, biFeed } from "./feed.ts";
export type { ODataFilterBuilder, ODataOperand } from "./filter.ts";
export { ODataFilter } from "./filter.ts";
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
export { ODataQuery, odata } from "./query.ts";
