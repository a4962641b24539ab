/**
 * Deprecations as the contract records them (`deprecated: true`, `x-deprecated-at`, `x-sunset`; DECISIONS.md
 * "Versions and deprecations"), shown wherever an endpoint is documented: the Markdown mirrors and `get_endpoint`,
 * and the HTML reference's operation descriptions (the renderer marks deprecated operations itself).
 */

type Obj = Record<string, unknown>;

export interface Deprecation {
  /** `x-deprecated-at`: since when (RFC 3339 full date), or null when the document does not say. */
  deprecatedAt: string | null;
  /** `x-sunset`: when it may stop working, or null when the document does not say. */
  sunset: string | null;
}

const dateOf = (value: unknown) => (typeof value === "string" ? value : null);

/** The deprecation of an operation, parameter or schema object, or null when it is not deprecated. */
export function deprecationOf(node: unknown): Deprecation | null {
  const obj = node as Obj | null | undefined;
  if (obj?.deprecated !== true) return null;
  return { deprecatedAt: dateOf(obj["x-deprecated-at"]), sunset: dateOf(obj["x-sunset"]) };
}

/** One sentence: `Deprecated since 2026-11-01; sunset 2027-06-01 (it may stop working after that date).` */
export function deprecationSentence(deprecation: Deprecation): string {
  const since = deprecation.deprecatedAt ? ` since ${deprecation.deprecatedAt}` : "";
  const sunset = deprecation.sunset
    ? `; sunset ${deprecation.sunset} (it may stop working after that date)`
    : "";
  return `Deprecated${since}${sunset}.`;
}

const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];

/** The reference document with each deprecated operation's description opening with its dates. */
export function withDeprecationNotes(doc: Obj): void {
  for (const item of Object.values((doc.paths as Record<string, Obj> | undefined) ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Obj | undefined;
      const deprecation = deprecationOf(operation);
      if (!operation || !deprecation) continue;
      const description = String(operation.description ?? "").trim();
      operation.description = `**${deprecationSentence(deprecation)}**${description ? `\n\n${description}` : ""}`;
    }
  }
}
