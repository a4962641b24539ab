// Declarations of scripts/chromium-path.mjs.
export const SYSTEM_CHROMIUMS: string[];
/** `CHROMIUM_PATH` when it names an executable, else the first system Chromium found; undefined when none. */
export function chromiumPath(): string | undefined;
