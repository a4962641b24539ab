/**
 * The request pipeline: everything a request goes through, in order, as one list of stages. Read top to bottom, it
 * is the story of a request; the order decides which problem wins when several apply. Each stage is
 * `(ex) => void | Promise<void>` built with the few services it needs (never the engine) and stops the request by
 * throwing (`exchange.ts`); `dispatch.ts` runs the list. The stages marked `always` run after every answer, a
 * stopped request's too. A transport adds only what it alone can give (`TransportServices`: the node server's admin
 * guard and mounted servers); it reads the request off its socket and writes the answer, nothing else.
 */
import type { LinkServices } from "../context.ts";
import type { OpenApiDocument } from "../document.ts";
import type { ErrorReporter, EventListeners } from "../events.ts";
import type { LinkSigner } from "../links.ts";
import type { Router } from "../router.ts";
import type { Sessions } from "../sessions.ts";
import type { ErrorFormat } from "../types.ts";
import type { Validator } from "../validation.ts";
import { accounting } from "./accounting.ts";
import { type AdminGuard, adminGuard, maskControlSecrets } from "./admin-guard.ts";
import { answer } from "./answer.ts";
import { authentication } from "./authentication.ts";
import { checkResponses, type ResponseCheckServices } from "./check-response.ts";
import { markDeprecated } from "./deprecation.ts";
import { sectionErrors, tokenErrors } from "./error-formats.ts";
import type { Route, Stage } from "./exchange.ts";
import { injectFault } from "./faults.ts";
import { finish } from "./finish.ts";
import { beginWrite } from "./idempotency.ts";
import { input } from "./input.ts";
import { handOver, type Mount } from "./mounts.ts";
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
  /** The document served: its deprecated operations and parameters are announced in their answers' headers. */
  document: OpenApiDocument;
  /** When set, answers are checked against the document (tests). */
  responseChecks?: Omit<ResponseCheckServices, "validator"> | undefined;
  /** What the transport adds (none for msw and in-process calls). */
  transport?: TransportServices | undefined;
}

/** What a transport adds to the list (`MockCore.responder`): only the node server has these. */
export interface TransportServices {
  /** Off loopback: the developer controls' admin token check and the masking of their answers (`node/admin.ts`). */
  admin?: AdminGuard | null | undefined;
  /** Servers mounted beside the API on their own paths (the docs, the BI assistant). */
  mounts?: readonly Mount[] | undefined;
}

export function requestPipeline(s: PipelineServices): Stage[] {
  const { mountPath, validator } = s;
  const admin = s.transport?.admin;
  const mounts = s.transport?.mounts ?? [];
  return [
    // Off loopback, `/__mock` without the admin token: 401 (or the redirect that keeps a browser's token).
    ...(admin ? [adminGuard(admin, mountPath)] : []),
    // A path of a mounted server (docs, BI assistant) is handed to it; the transport lets it answer (and stream).
    ...(mounts.length > 0 ? [handOver(mounts)] : []),
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
    // A deprecated operation, or a deprecated query parameter sent, announced: Deprecation, Sunset, Link.
    markDeprecated({ document: s.document }),
    ...(s.responseChecks ? [checkResponses({ validator, ...s.responseChecks })] : []),
    // HEAD without a body, the keyed write's response stored, CORS.
    finish(),
    // After every answer, a stopped request's too:
    accounting(s.sessions),
    tokenErrors(mountPath),
    sectionErrors(s.errorFormats, mountPath),
    // Off loopback, secrets in the developer controls' answers shortened, last.
    ...(admin ? [maskControlSecrets(admin, mountPath)] : []),
  ];
}
