/**
 * The routing stage: a CORS preflight is answered, a developer control (`/__mock`) is handed to the controls, every
 * other request is matched against the document's operations (404, 405) and gets its mock session.
 */
import { isPreflight, preflightResponse } from "../cors.ts";
import { pickText } from "../culture.ts";
import { msg } from "../messages.ts";
import { type ProblemError, stageProblem } from "../problems.ts";
import type { MatchResult, Router } from "../router.ts";
import type { MockSession } from "../session.ts";
import type { Culture, MockResponse } from "../types.ts";
import { Answered, type Exchange, type Route, type Stage } from "./exchange.ts";

/** What routing needs: the route tree, the sessions, and the developer controls. */
export interface RoutingServices {
  router: Router<Route>;
  /** The sessions: `get(id)` is the session with this id, created from the seed on first use. */
  sessions: { get(id: string): MockSession };
  /** Answers a developer control under `/__mock` in this session (routing, rate limits and faults bypassed). */
  control(exchange: Exchange, session: MockSession): Promise<MockResponse>;
}

export function routing({ router, sessions, control }: RoutingServices): Stage {
  return (ex: Exchange) => {
    const pathname = ex.pathname ?? "/";
    if (isPreflight(ex.method, ex.headers)) throw new Answered(preflight(router, pathname, ex));
    if (pathname === "/__mock" || pathname.startsWith("/__mock/")) {
      const mock = sessions.get(ex.sessionId);
      mock.lastUsed = mock.clock.now();
      ex.session = mock;
      return control(ex, mock).then((response) => {
        throw new Answered(response);
      });
    }
    const match = router.match(ex.method, pathname);
    if (match.kind !== "found") throw routeProblem(match, ex.method, pathname, ex.culture);
    ex.route = match.route;
    ex.template = match.template;
    ex.params = match.params;
    const mock = sessions.get(ex.sessionId);
    ex.session = mock;
    ex.now = mock.clock.now();
    mock.lastUsed = ex.now;
  };
}

/** The localized 404 (no operation at the path) or 405 (with Allow, HEAD next to GET, OPTIONS always). */
export function routeProblem(
  match: Exclude<MatchResult<unknown>, { kind: "found" }>,
  method: string,
  pathname: string,
  culture: Culture,
): ProblemError {
  if (match.kind === "not-found") {
    return stageProblem("not-found", {
      detail: pickText(msg("core.pipeline.routing.no-operation-exists-at", { pathname }), culture),
    });
  }
  const allow = [...match.allow, ...(match.allow.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  return stageProblem("method-not-allowed", {
    headers: { allow },
    detail: pickText(
      msg("core.pipeline.routing.is-not-allowed-on-allowed", { method, template: match.template, allow }),
      culture,
    ),
  });
}

/**
 * Answers a CORS preflight: the methods the path allows (every method under `/__mock`), or a 404 for a path with
 * no operation.
 */
function preflight(router: Router<Route>, pathname: string, ex: Exchange): MockResponse {
  let methods = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
  if (!pathname.startsWith("/__mock")) {
    const probe = router.match("__PROBE__", pathname);
    if (probe.kind === "not-found") throw stageProblem("not-found");
    if (probe.kind === "method-not-allowed") methods = [...probe.allow, "OPTIONS"].join(", ");
  }
  return preflightResponse(methods, ex.origin, ex.headers, ex.logId);
}
