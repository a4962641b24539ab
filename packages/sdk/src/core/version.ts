/** The SDK version (kept equal to package.json by `pnpm release:version` and a test). */
export const SDK_VERSION = "0.1.0";
