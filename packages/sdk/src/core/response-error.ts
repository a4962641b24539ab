/** The typed error of a response that `client.fetch` resolved with (it resolves HTTP errors, as `fetch` does). */

import type { EntradaError } from "./errors.ts";
import { errorFromResponse } from "./response.ts";

/**
 * The `EntradaError` a section method would reject with for this non-2xx response: an `EntradaProblemError` for
 * problem details (`slug`, `errors`, `logId`), an `OAuthError`, or an `UnexpectedBodyError` keeping the raw body.
 * Reads the body. `request` names the call in the message (`GET /assets/v1/… → 404 not-found: …`); its `url`
 * defaults to the response's.
 *
 * @example
 * const response = await client.fetch(ticketUrl);
 * if (!response.ok) throw await responseError(response, { method: "GET" });
 */
export async function responseError(
  response: Response,
  request: { method?: string; url?: string } = {},
): Promise<EntradaError> {
  const header = (name: string) => response.headers.get(name) ?? undefined;
  return errorFromResponse(response.headers, await response.text(), {
    status: response.status,
    logId: header("x-log-id"),
    requestId: header("x-request-id"),
    contentLanguage: header("content-language"),
    method: request.method,
    url: request.url ?? (response.url || undefined),
  });
}
