/**
 * The request pipeline: everything a request goes through, in order, as one list of stages. Read top to bottom, it
 * is the story of a request; the order decides which problem wins when several apply. Each stage is
 * `(exchange) => void | Promise<void>` built with the few services it needs (never the engine) and stops the
 * request by throwing (`exchange.ts`); `dispatch.ts` runs the list. The stages marked `always` run after every
 * answer, a stopped request's too.
 */
import type { LinkServices } from "../context.ts";
import type { ErrorReporter, EventListeners } from "../events.ts";
import type { LinkSigner } from "../links.ts";
import type { Router } from "../router.ts";
import type { Sessions } from "../sessions.ts";
import type { ErrorFormat } from "../types.ts";
import type { Validator } from "../validation.ts";
import { accounting } from "./accounting.ts";
import { answer } from "./answer.ts";
import { authentication } from "./authentication.ts";
import { checkResponses, type ResponseCheckServices } from "./check-response.ts";
import { sectionErrors, tokenErrors } from "./error-formats.ts";
import type { Route, Stage } from "./exchange.ts";
import { injectFault } from "./faults.ts";
import { finish } from "./finish.ts";
import { beginWrite } from "./idempotency.ts";
import { input } from "./input.ts";
import { notAcceptable } from "./negotiation.ts";
import { preamble } from "./preamble.ts";
import { type RateLimitConfig, rateLimit } from "./rate-limit.ts";
import { type RoutingServices, routing } from "./routing.ts";

/** What the stages are built with: the engine's parts, each handed to the stages that need it. */
export interface PipelineServices {
  /** The base path (`/api`), or "" at the root. */
  mountPath: string;
  /** Sections that render the engine's errors (and negotiate the culture) on their paths in their own format. */
  errorFormats: readonly ErrorFormat[];
  router: Router<Route>;
  sessions: Sessions;
  control: RoutingServices["control"];
  rateLimit: RateLimitConfig | false;
  signer: LinkSigner;
  links: LinkServices;
  validator: Validator;
  maxBodyBytes: number;
  events: EventListeners;
  onError: ErrorReporter;
  tokenTtlSeconds: number;
  /** When set, answers are checked against the document (tests). */
  responseChecks?: Omit<ResponseCheckServices, "validator"> | undefined;
}

export function requestPipeline(s: PipelineServices): Stage[] {
  const { mountPath, validator } = s;
  return [
    // The target (dot segments, URL syntax), Accept-Language, the mock session id, duplicated headers.
    preamble({ mountPath, errorFormats: s.errorFormats }),
    // CORS preflight, the developer controls (`/__mock`), the operation (404/405) and the session.
    routing({ router: s.router, sessions: s.sessions, control: s.control }),
    rateLimit(s.rateLimit),
    injectFault(),
    // 406 when no documented success type is acceptable.
    notAcceptable(),
    // Bearer token, client credentials or a signed link, and the operation's scopes.
    authentication({ links: s.signer, mountPath }),
    // Parameters, the Idempotency-Key and the body, each checked against the document.
    input({ validator, maxBodyBytes: s.maxBodyBytes }),
    // A keyed write: replayed, refused (409, 422) or begun.
    beginWrite(),
    // The section's handler (or the OAuth token endpoint) answers; its events are published.
    answer({ links: s.links, events: s.events, onError: s.onError, tokenTtlSeconds: s.tokenTtlSeconds }),
    ...(s.responseChecks ? [checkResponses({ validator, ...s.responseChecks })] : []),
    // HEAD without a body, the keyed write's response stored, CORS.
    finish(),
    // After every answer, a stopped request's too:
    accounting(s.sessions),
    tokenErrors(mountPath),
    sectionErrors(s.errorFormats, mountPath),
  ];
}
