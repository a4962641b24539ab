/** The routing stage's answers: 404 and 405 for requests that match no operation, and CORS preflights. */
import { preflightResponse } from "./cors.ts";
import { pickText } from "./culture.ts";
import { problemResponse } from "./problem-response.ts";
import type { MatchResult, Router } from "./router.ts";
import type { Culture, MockResponse } from "./types.ts";

/** The localized 404 (no operation at the path) or 405 (with Allow, HEAD next to GET, OPTIONS always). */
export function routeProblem(
  match: Exclude<MatchResult<unknown>, { kind: "found" }>,
  method: string,
  pathname: string,
  culture: Culture,
  logId: string,
  origin: string | undefined,
): MockResponse {
  if (match.kind === "not-found") {
    return problemResponse("not-found", culture, logId, origin, {
      instance: pathname,
      detail: pickText(
        {
          "de-CH": `Es gibt keine Operation unter ${pathname}.`,
          "fr-CH": `Aucune opération n'existe sous ${pathname}.`,
          "it-CH": `Non esiste alcuna operazione sotto ${pathname}.`,
          "en-GB": `No operation exists at ${pathname}.`,
        },
        culture,
      ),
    });
  }
  const allow = [...match.allow, ...(match.allow.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  return problemResponse("method-not-allowed", culture, logId, origin, {
    instance: pathname,
    headers: { allow },
    detail: pickText(
      {
        "de-CH": `${method} ist für ${match.template} nicht erlaubt. Erlaubt: ${allow}.`,
        "fr-CH": `${method} n'est pas autorisé pour ${match.template}. Autorisé : ${allow}.`,
        "it-CH": `${method} non è consentito per ${match.template}. Consentito: ${allow}.`,
        "en-GB": `${method} is not allowed on ${match.template}. Allowed: ${allow}.`,
      },
      culture,
    ),
  });
}

/**
 * Answers a CORS preflight: the methods the path allows (every method under `/__mock`), or a 404 for a path with
 * no operation.
 */
export function preflight(
  router: Router<unknown>,
  pathname: string,
  origin: string | undefined,
  headers: Record<string, string>,
  logId: string,
  culture: Culture,
): MockResponse {
  let methods = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
  if (!pathname.startsWith("/__mock")) {
    const probe = router.match("__PROBE__", pathname);
    if (probe.kind === "not-found")
      return problemResponse("not-found", culture, logId, origin, { instance: pathname });
    if (probe.kind === "method-not-allowed") methods = [...probe.allow, "OPTIONS"].join(", ");
  }
  return preflightResponse(methods, origin, headers, logId);
}
