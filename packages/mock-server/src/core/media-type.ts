/**
 * A `Content-Type` value read once: its media type and its `charset=…` parameter (if any), both lower-cased, without
 * spaces around them. A missing header reads as media type "" (no charset).
 * @example contentTypeOf('Application/JSON; Charset="UTF-8"') // { media: "application/json", charset: 'charset="utf-8"' }
 */
export function contentTypeOf(value: string | undefined): { media: string; charset: string | undefined } {
  const text = value ?? "";
  const semicolon = text.indexOf(";");
  if (semicolon === -1) return { media: text.trim().toLowerCase(), charset: undefined };
  const params = text.slice(semicolon + 1).split(";");
  return {
    media: text.slice(0, semicolon).trim().toLowerCase(),
    charset: params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("charset=")),
  };
}
