/** Facts about the JavaScript runtime, detected without touching platform-specific modules. */

import { SDK_VERSION } from "./version.ts";

/** True where a DOM is present (a browser page or a browser-like test environment). */
export function isBrowserLike(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown };
  return typeof g.window !== "undefined" || typeof g.document !== "undefined";
}

/** Base64 of a string's UTF-8 bytes, with `btoa` (available in Node ≥ 16, browsers, Deno, Bun, workers). */
export function base64Utf8(value: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(value)));
}

/** The SDK's `User-Agent`: `entrada-sdk-js/<version>`, then the product (`shop`) and the integrator's own token. */
export function productUserAgent(parts: readonly (string | undefined)[]): string {
  return [`entrada-sdk-js/${SDK_VERSION}`, ...parts.filter(Boolean)].join(" ");
}
