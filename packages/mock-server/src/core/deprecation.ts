/**
 * Deprecation headers (DECISIONS.md "Versions and deprecations"): an operation marked `deprecated: true` with
 * `x-deprecated-at` and `x-sunset` answers with `Deprecation: @<unix seconds>` (RFC 9745), `Sunset: <HTTP-date>`
 * (RFC 8594) and `Link: <changelog>; rel="deprecation"` (the document's `info.x-changelog`). The engine adds them
 * to its answers; the contract checker (so the proxy and `entrada-mock verify`) expects them.
 */
import { getPointer, type OpenApiDocument, type OperationSpec } from "./document.ts";

/** What a deprecated operation or parameter says about itself. */
export interface DeprecationDates {
  /** `x-deprecated-at`, an RFC 3339 full date. */
  deprecatedAt: string | undefined;
  /** `x-sunset`, an RFC 3339 full date. */
  sunset: string | undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The dates of a `deprecated: true` object (operation or parameter), or null when it is not deprecated. */
export function deprecationDates(node: unknown): DeprecationDates | null {
  const obj = node as Record<string, unknown> | null | undefined;
  if (obj?.deprecated !== true) return null;
  const date = (value: unknown) => (typeof value === "string" && DATE.test(value) ? value : undefined);
  return { deprecatedAt: date(obj["x-deprecated-at"]), sunset: date(obj["x-sunset"]) };
}

const midnight = (date: string) => Date.parse(`${date}T00:00:00Z`);

/**
 * The three headers for `dates`, names lower-case: `deprecation` only with a known date (RFC 9745 requires one),
 * `sunset` only with a sunset, `link` whenever the document names its changelog.
 */
export function deprecationHeaders(
  dates: DeprecationDates,
  changelog: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (dates.deprecatedAt) headers.deprecation = `@${Math.floor(midnight(dates.deprecatedAt) / 1000)}`;
  if (dates.sunset) headers.sunset = new Date(midnight(dates.sunset)).toUTCString();
  if (changelog) headers.link = `<${changelog}>; rel="deprecation"; type="text/html"`;
  return headers;
}

/** The document's changelog (`info.x-changelog`), the target of the `rel="deprecation"` link. */
export function changelogOf(document: OpenApiDocument): string | undefined {
  const info = (document as { info?: Record<string, unknown> }).info;
  return typeof info?.["x-changelog"] === "string" ? info["x-changelog"] : undefined;
}

const kept = new WeakMap<OperationSpec, Record<string, string> | null>();

/** The headers every answer of `op` carries (null when the operation is not deprecated), worked out once per op. */
export function operationDeprecationHeaders(
  document: OpenApiDocument,
  op: OperationSpec,
): Record<string, string> | null {
  let headers = kept.get(op);
  if (headers === undefined) {
    const dates = deprecationDates(getPointer(document, op.pointer));
    headers = dates ? deprecationHeaders(dates, changelogOf(document)) : null;
    kept.set(op, headers);
  }
  return headers;
}
