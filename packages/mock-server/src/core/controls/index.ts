/**
 * Developer controls under `/__mock` (no auth; per session via `X-Mock-Session` or `?mockSession=`), one file per
 * concern (world, clock, faults, events, clients, sessions) plus the sections' own control routes and those of the
 * options; this file routes them and serves the index. Documented in the package README and listed by `GET /__mock`.
 * The section routes stay with the section whose data they serve (a mock built without that section has none of
 * them): the hosted payment page (`sections/shop/payment-page.ts`, `shopControls`), credential-free ticket and
 * receipt PDFs (`sections/assets/index.ts`, `documentControls`), and the webhook delivery log
 * (`sections/index.ts`, `defaultControls`, passed as the `controls` option).
 */

import { buildContext } from "../context.ts";
import { cors } from "../cors.ts";
import { jsonBody } from "../json-text.ts";
import { contentTypeOf } from "../media-type.ts";
import { type Exchange, problemAnswer } from "../pipeline/exchange.ts";
import { ProblemError, stageProblem } from "../problems.ts";
import { Router } from "../router.ts";
import type { MockSession } from "../session.ts";
import type { MockRequest, MockResponse } from "../types.ts";
import { CLIENTS_CONTROLS } from "./clients.ts";
import { CLOCK_CONTROLS } from "./clock.ts";
import { type Control, json } from "./control.ts";
import { EVENTS_CONTROLS } from "./events.ts";
import { FAULTS_CONTROLS } from "./faults.ts";
import { htmlIndex } from "./page.ts";
import type { ControlServices } from "./services.ts";
import { SESSIONS_CONTROLS } from "./sessions.ts";
import { WORLD_CONTROLS } from "./world.ts";

const CONTROLS: Control[] = [
  {
    method: "GET",
    path: "/",
    description: "This index: every control with its method and path (HTML for browsers, JSON otherwise).",
    run: ({ core, logId, session, request }) =>
      (request.headers.accept ?? "").includes("text/html")
        ? htmlIndex(core, session, logId, CONTROLS)
        : json(
            200,
            {
              name: "Entrada mock server",
              session: session.id,
              sessionHeader: "X-Mock-Session",
              document: "/__mock/openapi.json",
              operations: core.operations.length,
              controls: [
                ...CONTROLS.map((c) => ({
                  method: c.method,
                  path: `/__mock${c.path === "/" ? "" : c.path}`,
                  description: c.description,
                })),
                ...[...core.sections.flatMap((s) => s.controls ?? []), ...(core.options.controls ?? [])].map(
                  (c) => ({
                    method: c.method,
                    path: `/__mock${c.path}`,
                    description: c.description,
                  }),
                ),
              ],
              demoClients: core.options.clients.map((c) => ({
                clientId: c.clientId,
                secret: c.secrets[0],
                scopes: c.scopes,
              })),
              testPayments: {
                card: { succeeds: "4242424242424242", declines: "4000000000000002" },
                redirect:
                  "Checkout returns 202 with redirectUrl: a hosted page at /__mock/pay/{paymentId} with Pay, Fail and Cancel.",
              },
            },
            logId,
          ),
  },
  {
    method: "GET",
    path: "/openapi.json",
    description: "The OpenAPI document the mock validates against.",
    run: ({ core, logId }) => json(200, core.document, logId),
  },
  ...WORLD_CONTROLS,
  ...CLOCK_CONTROLS,
  ...FAULTS_CONTROLS,
  ...EVENTS_CONTROLS,
  ...CLIENTS_CONTROLS,
  ...SESSIONS_CONTROLS,
];

const router = new Router<Control>();
for (const control of CONTROLS) router.add(control.method, control.path, control);

function parseControlBody(request: MockRequest): unknown {
  if (!request.body || request.body.length === 0) return undefined;
  if (request.body.length > 8 * 1024 * 1024) throw new ProblemError("payload-too-large");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(request.body);
  } catch {
    throw new ProblemError("malformed-request", "The body is not valid UTF-8.", {
      errors: [{ pointer: "/body", detail: "Not valid UTF-8." }],
    });
  }
  const media = contentTypeOf(request.headers["content-type"]).media;
  if (media === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ProblemError("malformed-request", `The body is not valid JSON: ${(error as Error).message}`, {
      errors: [{ pointer: "/body", detail: "Not valid JSON." }],
    });
  }
}

/**
 * The routing stage's `control` service: answers a `/__mock` request in its session, with CORS. The controls reach
 * the engine only through `core` (`services.ts`).
 */
export function controlAnswerer(
  core: ControlServices,
): (ex: Exchange, session: MockSession) => Promise<MockResponse> {
  return async (ex, session) => cors(await handleControl(core, session, ex), ex.origin);
}

async function handleControl(
  core: ControlServices,
  session: MockSession,
  ex: Exchange,
): Promise<MockResponse> {
  const { request, url, culture, logId } = ex;
  const pathname = ex.pathname ?? "/";
  const sub = pathname === "/__mock" ? "/" : pathname.slice("/__mock".length);
  const method = request.method.toUpperCase();
  try {
    const builtin = router.match(method, sub === "/" ? "/" : sub.replace(/\/$/, ""));
    if (builtin.kind === "found") {
      return await builtin.route.run({
        core,
        session,
        body: parseControlBody(request),
        url,
        params: builtin.params,
        logId,
        culture,
        request,
      });
    }
    const sectionMatch = core.controlRoutes.match(method, sub);
    if (sectionMatch.kind === "found") {
      const { route } = sectionMatch.route;
      const ctx = buildContext({
        links: core.links,
        session,
        operationId: `control:${route.path}`,
        method,
        origin: url.origin,
        url: () => url,
        params: sectionMatch.params,
        query: Object.fromEntries(url.searchParams),
        headers: request.headers,
        body: parseControlBody(request),
        culture,
        auth: null,
        logId,
        // Controls publish at once (there is no handler outcome to wait for).
        publish: (type, data) => core.events.publish(session, type, data),
      });
      const result = await route.handler(ctx);
      const headers: Record<string, string> = {
        "x-log-id": logId,
        "cache-control": "no-store",
        "content-language": culture,
        vary: "Accept-Language",
      };
      let body: string | Uint8Array | null = null;
      if (result.raw !== undefined) {
        body = result.raw;
        headers["content-type"] = result.contentType ?? "text/html; charset=utf-8";
      } else if (result.body !== undefined) {
        body = jsonBody(result.body);
        headers["content-type"] = "application/json";
      }
      for (const [k, v] of Object.entries(result.headers ?? {})) headers[k.toLowerCase()] = v;
      return { status: result.status, headers, body };
    }
    const allow =
      builtin.kind === "method-not-allowed"
        ? builtin.allow
        : sectionMatch.kind === "method-not-allowed"
          ? sectionMatch.allow
          : null;
    if (allow)
      return problemAnswer(ex, stageProblem("method-not-allowed", { headers: { allow: allow.join(", ") } }));
    return problemAnswer(
      ex,
      stageProblem("not-found", { detail: `No developer control at ${pathname}; GET /__mock lists them.` }),
    );
  } catch (error) {
    if (error instanceof ProblemError) {
      // A control names its field errors in the extensions (`control.ts`); they are the problem's `errors`.
      const errors = error.extensions?.errors as Array<{ pointer: string; detail: string }> | undefined;
      const { errors: _e, ...rest } = error.extensions ?? {};
      return problemAnswer(
        ex,
        stageProblem(error.slug, { detail: error.detail, errors, extensions: rest, headers: error.headers }),
      );
    }
    throw error;
  }
}
