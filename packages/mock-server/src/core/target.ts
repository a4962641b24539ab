/** The request target as sent: raw path, dot segments, session ids, duplicated singleton headers, the mount path. */

/** RFC 3986 dot segments, also percent-encoded. */
export const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;
/** What an `X-Mock-Session` header (or `mockSession` query parameter under `/__mock`) may hold. */
export const SESSION_ID = /^[A-Za-z0-9._-]{1,64}$/;
/**
 * Headers that must not be sent twice (a proxy or client bug that would otherwise be resolved silently). The one
 * list: transports report every repeated header (`MockRequest.duplicateHeaders`), the preamble refuses these.
 */
export const SINGLETON_HEADERS = [
  "authorization",
  "content-type",
  "idempotency-key",
  "x-mock-session",
  "content-length",
];

/** The path of an absolute URL string as sent (before any normalization), without query or fragment. */
export function rawPath(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const end = url.search(/[?#]/);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}

/** The first duplicated singleton header, or undefined. */
export function duplicatedSingleton(duplicates: readonly string[] | undefined): string | undefined {
  if (!duplicates) return undefined;
  for (const name of duplicates) if (SINGLETON_HEADERS.includes(name)) return name;
  return undefined;
}

/** `path` relative to the mount path (`/api`; "" for the root), or null when it lies outside it. */
export function withinMount(mount: string, path: string): string | null {
  if (mount === "") return path;
  return path.startsWith(mount) ? path.slice(mount.length) || "/" : null;
}
