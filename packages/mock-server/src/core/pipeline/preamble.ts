/**
 * Request-wide checks that run before routing, in this order: the target (dot segments, URL syntax; problems in the
 * default culture), Accept-Language, the mock session id, duplicated singleton headers.
 */
import { AcceptLanguageError, negotiateCulture } from "../culture.ts";
import { Kept } from "../kept.ts";
import { errorFormatFor, stageProblem } from "../problems.ts";
import { DOT_SEGMENT, duplicatedSingleton, rawPath, SESSION_ID, withinMount } from "../target.ts";
import type { Culture, ErrorFormat, MockRequest } from "../types.ts";
import type { Exchange, Stage, Target } from "./exchange.ts";

/** What the preamble needs: where the API is mounted, and the sections that negotiate their own culture. */
export interface PreambleServices {
  /** The base path (`/api`), or "" at the root. */
  mountPath: string;
  errorFormats: readonly ErrorFormat[];
}

/** The preamble stage: target → culture → mock session → duplicated headers (fills target, pathname, culture). */
export function preamble({ mountPath, errorFormats }: PreambleServices): Stage {
  return (ex: Exchange) => {
    const target = targetOf(ex.request.url);
    const pathname = withinMount(mountPath, target.pathname);
    ex.target = target;
    if (pathname === null) {
      ex.pathname = target.pathname;
      throw stageProblem("not-found");
    }
    ex.pathname = pathname;
    // A section that owns the path may negotiate its own way (the BI feed); its rule covers the engine's errors.
    const own = errorFormats.length > 0 ? errorFormatFor(errorFormats, pathname)?.culture : undefined;
    if (own) ex.culture = own(undefined);
    const negotiated = requestCulture(ex.headers);
    ex.culture = own ? own(ex.headers["accept-language"]) : negotiated;
    ex.sessionId = mockSessionId(ex.headers, target.search === "" ? null : ex.url, pathname);
    duplicatedHeaderProblem(ex.request);
  };
}

/** Targets of the last distinct URL strings that were not plain: a repeated one (a polled list) is parsed once. */
const targets = new Kept<string, Target>(256);

/** The target of a request URL (see `parseTarget`): read off a plain URL, else kept from an earlier request. */
export function targetOf(rawUrl: string): Target {
  return plainTarget(rawUrl) ?? targets.get(rawUrl, parsedTarget);
}

function parsedTarget(rawUrl: string): Target {
  const { origin, pathname, search } = parseTarget(rawUrl);
  return { origin, pathname, search };
}

/**
 * A path WHATWG URL parsing leaves exactly as sent: letters, digits, `-`, `_`, `~` and slashes (nothing it would
 * percent-encode, no dot that could make a dot segment, no query or fragment).
 */
const PLAIN_PATH = /^\/[A-Za-z0-9_~/-]*$/;

/**
 * The target of a URL whose path is plain (most API requests: `/shop/v1/cart/crt_…/items`), without parsing it:
 * the path is the pathname as sent and the origin the one WHATWG parsing gives its scheme and authority (kept per
 * authority). Undefined for any other URL, which `parseTarget` reads (a new cart's URL was one parse each).
 */
function plainTarget(rawUrl: string): Target | undefined {
  const slash = rawUrl.indexOf("/", rawUrl.indexOf("//") + 2);
  if (slash < 0) return undefined;
  const pathname = rawUrl.slice(slash);
  if (!PLAIN_PATH.test(pathname)) return undefined;
  const origin = originOf(rawUrl.slice(0, slash));
  return origin === null ? undefined : { origin, pathname, search: "" };
}

/** Scheme and authority (`http://127.0.0.1:4010`) → origin, null when WHATWG parsing refuses it. */
const origins = new Kept<string, string | null>(64);

function originOf(authority: string): string | null {
  return origins.get(authority, parsedOrigin);
}

function parsedOrigin(authority: string): string | null {
  // A query or fragment mark before the path's slash would make that slash part of them: parsed the long way.
  if (/[?#\\]/.test(authority)) return null;
  try {
    const { origin } = new URL(`${authority}/`);
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The request URL; throws the 400. WHATWG URL parsing would silently resolve "/a/../b"; a client sending dot
 * segments gets told instead.
 */
export function parseTarget(rawUrl: string): URL {
  if (DOT_SEGMENT.test(rawPath(rawUrl))) {
    throw stageProblem("malformed-request", {
      detail: "The path contains dot segments (. or ..); send the resolved path.",
      errors: [{ pointer: "/path", detail: "Dot segments are not allowed." }],
    });
  }
  try {
    return new URL(rawUrl);
  } catch {
    throw stageProblem("malformed-request", {
      detail: "The request URL is not valid.",
    });
  }
}

/** The negotiated culture (first, so every later problem is localized); throws the 400 for a malformed header. */
export function requestCulture(headers: Record<string, string>): Culture {
  try {
    return negotiateCulture(headers["accept-language"]);
  } catch (error) {
    if (!(error instanceof AcceptLanguageError)) throw error;
    throw stageProblem("validation-error", {
      errors: [{ pointer: "/header/accept-language", detail: error.message }],
    });
  }
}

/**
 * The mock session the request runs in: the `X-Mock-Session` header, else (under `/__mock`, and on signed links,
 * whose signature covers it: links opened in a browser) a valid `mockSession` query parameter, else "default". A
 * malformed header is a 400.
 */
export function mockSessionId(headers: Record<string, string>, url: URL | null, pathname: string): string {
  const sessionHeader = headers["x-mock-session"];
  if (sessionHeader !== undefined) {
    if (SESSION_ID.test(sessionHeader)) return sessionHeader;
    throw stageProblem("validation-error", {
      errors: [
        {
          pointer: "/header/x-mock-session",
          detail: "1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'.",
        },
      ],
    });
  }
  // (`url`: null without a query.)
  if (url !== null && (pathname.startsWith("/__mock") || url.searchParams.has("signature"))) {
    const fromQuery = url.searchParams.get("mockSession");
    if (fromQuery && SESSION_ID.test(fromQuery)) return fromQuery;
  }
  return "default";
}

/** Throws the 400 for a singleton header sent more than once. */
export function duplicatedHeaderProblem(request: MockRequest): void {
  const duplicated = duplicatedSingleton(request.duplicateHeaders);
  if (duplicated === undefined) return;
  throw stageProblem("malformed-request", {
    detail: `The header ${duplicated} was sent more than once.`,
    errors: [{ pointer: `/header/${duplicated}`, detail: "Sent more than once; send it once." }],
  });
}
