/**
 * Request-wide checks that run before routing, in this order: the target (dot segments, URL syntax; problems in the
 * default culture), Accept-Language, the mock session id, duplicated singleton headers.
 */
import { AcceptLanguageError, DEFAULT_CULTURE, negotiateCulture } from "../culture.ts";
import { problemResponse } from "../problems.ts";
import { DOT_SEGMENT, duplicatedSingleton, rawPath, SESSION_ID } from "../target.ts";
import type { Culture, MockRequest, MockResponse } from "../types.ts";

/**
 * The request URL, or the 400 to answer. WHATWG URL parsing would silently resolve "/a/../b"; a client sending dot
 * segments gets told instead.
 */
export function parseTarget(rawUrl: string, logId: string, origin: string | undefined): URL | MockResponse {
  if (DOT_SEGMENT.test(rawPath(rawUrl))) {
    return problemResponse("malformed-request", DEFAULT_CULTURE, logId, origin, {
      detail: "The path contains dot segments (. or ..); send the resolved path.",
      errors: [{ pointer: "/path", detail: "Dot segments are not allowed." }],
    });
  }
  try {
    return new URL(rawUrl);
  } catch {
    return problemResponse("malformed-request", DEFAULT_CULTURE, logId, origin, {
      detail: "The request URL is not valid.",
    });
  }
}

/** The negotiated culture (first, so every later problem is localized), or the 400 for a malformed header. */
export function requestCulture(
  headers: Record<string, string>,
  logId: string,
  origin: string | undefined,
  pathname: string,
): Culture | MockResponse {
  try {
    return negotiateCulture(headers["accept-language"]);
  } catch (error) {
    if (!(error instanceof AcceptLanguageError)) throw error;
    return problemResponse("validation-error", DEFAULT_CULTURE, logId, origin, {
      instance: pathname,
      errors: [{ pointer: "/header/accept-language", detail: error.message }],
    });
  }
}

/**
 * The mock session the request runs in: the `X-Mock-Session` header, else (under `/__mock`, and on signed links,
 * whose signature covers it: links opened in a browser) a valid `mockSession` query parameter, else "default". A
 * malformed header is a 400.
 */
export function mockSessionId(
  headers: Record<string, string>,
  url: URL,
  pathname: string,
  culture: Culture,
  logId: string,
  origin: string | undefined,
): string | MockResponse {
  const sessionHeader = headers["x-mock-session"];
  if (sessionHeader !== undefined) {
    if (SESSION_ID.test(sessionHeader)) return sessionHeader;
    return problemResponse("validation-error", culture, logId, origin, {
      instance: pathname,
      errors: [
        {
          pointer: "/header/x-mock-session",
          detail: "1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'.",
        },
      ],
    });
  }
  if (pathname.startsWith("/__mock") || url.searchParams.has("signature")) {
    const fromQuery = url.searchParams.get("mockSession");
    if (fromQuery && SESSION_ID.test(fromQuery)) return fromQuery;
  }
  return "default";
}

/** The 400 for a singleton header sent more than once; null otherwise. */
export function duplicatedHeaderProblem(
  request: MockRequest,
  culture: Culture,
  logId: string,
  origin: string | undefined,
  pathname: string,
): MockResponse | null {
  const duplicated = duplicatedSingleton(request.duplicateHeaders);
  if (duplicated === undefined) return null;
  return problemResponse("malformed-request", culture, logId, origin, {
    instance: pathname,
    detail: `The header ${duplicated} was sent more than once.`,
    errors: [{ pointer: `/header/${duplicated}`, detail: "Sent more than once; send it once." }],
  });
}
