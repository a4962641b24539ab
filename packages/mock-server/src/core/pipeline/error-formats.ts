/**
 * The error formats other than problem+json, after every answer: the OAuth token endpoint answers a malformed
 * request with OAuth's own error (RFC 6749 §5.2), and a section with an error format of its own (the BI feed's
 * OData errors) re-renders the engine's problems on its paths.
 */
import { reformatProblem } from "../problems.ts";
import { withinMount } from "../target.ts";
import { asOAuthError, TOKEN_PATH } from "../token-endpoint.ts";
import type { ErrorFormat, MockResponse } from "../types.ts";
import { always, type Exchange, type Stage } from "./exchange.ts";

const isProblem = (response: MockResponse) => response.headers["content-type"] === "application/problem+json";

/** A 400 problem of the token endpoint as OAuth's `invalid_request`. */
export function tokenErrors(mountPath: string): Stage {
  return always((ex) => {
    const response = ex.response;
    if (response && response.status === 400 && isProblem(response) && tokenPath(ex, mountPath) === TOKEN_PATH)
      ex.response = asOAuthError(response, ex.origin);
  });
}

/**
 * The request's path below the mount: from the target the preamble read (`pathname` is set with it), else — a target
 * it refused — from the path the URL resolves to.
 */
function tokenPath(ex: Exchange, mountPath: string): string | null {
  if (ex.pathname !== undefined) return withinMount(mountPath, ex.target.pathname);
  try {
    return withinMount(mountPath, new URL(ex.request.url).pathname);
  } catch {
    return null;
  }
}

/** A problem on a path whose section has its own error format, in that format. */
export function sectionErrors(errorFormats: readonly ErrorFormat[], mountPath: string): Stage {
  return always((ex) => {
    const response = ex.response;
    if (errorFormats.length > 0 && response && response.status >= 400 && isProblem(response))
      ex.response = reformatProblem(errorFormats, mountPath, ex.request, response);
  });
}
