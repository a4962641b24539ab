import type { BiColumn } from "./csdl.ts";
import type { BiEntitySet } from "./metadata.ts";
import type { BiPageSource } from "./types.ts";

export interface DatasetColumnsOptions {
  signal?: AbortSignal | undefined;
  /** Told when the SDK's built-in copy is used instead; default `console.warn`. */
  onWarning?: ((message: string) => void) | undefined;
}

/**
 * The dataset's columns for a typed target (Parquet, DuckDB): from the feed's `$metadata`, so a column the server
 * added or retyped is written as the server describes it. Only when `$metadata` cannot be read (or lacks the
 * dataset) the SDK's built-in copy is used, with a warning.
 */
export async function datasetColumns(
  source: Pick<BiPageSource, "schema">,
  set: BiEntitySet,
  options: DatasetColumnsOptions,
): Promise<readonly BiColumn[]> {
  const warn = options.onWarning ?? ((message: string) => console.warn(`@entrada/sdk: ${message}`));
  let reason: string;
  try {
    const columns = (await source.schema({ signal: options.signal }))[set];
    if (columns?.length) return columns;
    reason = `it does not describe the dataset ${set}`;
  } catch (e) {
    if (options.signal?.aborted) throw e;
    reason = (e as Error)?.message ?? String(e);
  }
  warn(
    `the feed's $metadata could not be read (${reason}); the columns follow the SDK's built-in copy of ${set}`,
  );
  const { builtInColumns } = await import("./csdl.ts");
  return builtInColumns(set);
}
