// Declarations of scripts/chromium-path.mjs.
export const DEBIAN_CHROMIUM: string;
/** `CHROMIUM_PATH` when it names an executable, else Debian's `/usr/bin/chromium` if present; undefined when none. */
export function chromiumPath(): string | undefined;
