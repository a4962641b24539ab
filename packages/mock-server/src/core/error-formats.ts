/** Sections that render errors their own way (BI: OData JSON) get the engine's problems for their paths converted. */
import { rawPath, withinMount } from "./request-target.ts";
import type { ErrorFormat, MockRequest, MockResponse } from "./types.ts";

/**
 * The problem+json `response` re-rendered by the error format owning the request's path: same status and headers,
 * its content type and body. Unchanged when no format owns the path.
 */
export function reformatProblem(
  formats: readonly ErrorFormat[],
  mountPath: string,
  request: MockRequest,
  response: MockResponse,
): MockResponse {
  const path = withinMount(mountPath, rawPath(request.url));
  if (path === null) return response;
  const format = formats.find((f) => path === f.pathPrefix || path.startsWith(`${f.pathPrefix}/`));
  if (!format || typeof response.body !== "string") return response;
  const rendered = format.render(JSON.parse(response.body));
  return {
    ...response,
    headers: { ...response.headers, ...rendered.headers, "content-type": rendered.contentType },
    body: JSON.stringify(rendered.body),
  };
}
