/**
 * What a response says about the deprecation of the operation that answered (DECISIONS.md "Versions and
 * deprecations"): `Deprecation: @<unix seconds>` (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594) and the
 * `Link` with `rel="deprecation"` to the notice.
 */

export interface DeprecationNotice {
  /** When the operation was deprecated (`Deprecation`), or undefined when the server gave no date. */
  deprecatedAt: Date | undefined;
  /** After this moment the operation may stop working (`Sunset`). */
  sunset: Date | undefined;
  /** Where the deprecation is explained (the `Link` with `rel="deprecation"`). */
  link: string | undefined;
}

/** The target of the first `rel="deprecation"` link of a `Link` header (RFC 8288), or undefined. */
export function deprecationLink(header: string | null | undefined): string | undefined {
  return /<([^>]*)>[^,<]*;\s*rel\s*=\s*"?[^",;]*\bdeprecation\b/i.exec(header ?? "")?.[1];
}

/**
 * The notice of a response that carries `Deprecation`, or undefined for one that does not.
 * @example
 * const { data, response } = await client.shop.getEvent.orThrow({ params: { path: { eventId } } });
 * const notice = deprecationNotice(response?.headers); // { deprecatedAt, sunset, link } or undefined
 */
export function deprecationNotice(headers: Headers | undefined): DeprecationNotice | undefined {
  const value = headers?.get("deprecation");
  if (!value) return undefined;
  const sunset = new Date(headers?.get("sunset") ?? Number.NaN);
  return {
    deprecatedAt: /^@-?\d+$/.test(value) ? new Date(Number(value.slice(1)) * 1000) : undefined,
    sunset: Number.isNaN(sunset.getTime()) ? undefined : sunset,
    link: deprecationLink(headers?.get("link")),
  };
}
