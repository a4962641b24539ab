import type { BiColumn } from "./csdl.ts";
import type { BiFeed } from "./feed.ts";
import type { BiEntitySet } from "./metadata.ts";

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
  feed: BiFeed,
  set: BiEntitySet,
  options: DatasetColumnsOptions,
): Promise<readonly BiColumn[]> {
  const warn = options.onWarning ?? ((message: string) => console.warn(`@entrada/sdk: ${message}`));
  let reason: string;
  try {
    const columns = (await feed.schema({ signal: options.signal }))[set];
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

/** The columns named by a `$select` (all when none), in its order; a name the dataset lacks is refused. */
export function pickColumns(
  set: BiEntitySet,
  all: readonly BiColumn[],
  names: readonly string[] | undefined,
) {
  if (!names) return all;
  return names.map((name) => {
    const found = all.find((c) => c.name === name);
    if (!found)
      throw new RangeError(
        `Unknown property "${name}" of ${set}; expected one of ${all.map((c) => c.name).join(", ")}`,
      );
    return found;
  });
}
