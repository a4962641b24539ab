/**
 * The idempotency wrap around a handler (draft-ietf-httpapi-idempotency-key-header): a keyed write is begun before
 * the handler runs (replay, 422 reused key, 409 in flight) and its response stored after it (abandoned on a 5xx).
 */
import { cors } from "./cors.ts";
import { fingerprint, IdempotencyStore } from "./idempotency.ts";
import type { OperationRequest } from "./operation-request.ts";
import { problemResponse } from "./problem-response.ts";
import type { Culture, MockResponse } from "./types.ts";

const REUSED: Record<Culture, string> = {
  "de-CH": "Dieser Schlüssel wurde bereits für eine Anfrage mit anderem Inhalt verwendet.",
  "fr-CH": "Cette clé a déjà servi pour une requête au contenu différent.",
  "it-CH": "Questa chiave è già stata usata per una richiesta con un contenuto diverso.",
  "en-GB": "This key was already used for a request with a different body.",
};

/**
 * Begins a write: without a key it only evicts a few expired keys (so they go even when no keyed write follows)
 * and returns null; with one it returns the store scope to complete later, or the response to answer now.
 */
export function beginWrite(rq: OperationRequest, key: string | null): string | null | MockResponse {
  const { session, auth, now } = rq;
  if (key === null) {
    if (rq.op.write) session.idempotency.evict(now);
    return null;
  }
  const client = auth ? (auth.kind === "session" ? `session:${auth.sessionId}` : auth.clientId) : "anonymous";
  const scope = IdempotencyStore.scope(client, rq.method, rq.pathname, key);
  const outcome = session.idempotency.begin(scope, fingerprint(rq.body), now);
  if (outcome.kind === "replay") {
    const stored = outcome.response;
    const replayHeaders: Record<string, string> = {
      ...stored.headers,
      ...rq.rateHeaders,
      "idempotent-replayed": "true",
    };
    return cors({ status: stored.status, headers: replayHeaders, body: stored.body }, rq.origin);
  }
  if (outcome.kind === "reused") {
    // Names the header, so operations whose 422 is a ValidationProblem (errors required) get a conforming body.
    return problemResponse("idempotency-key-reused", rq.culture, rq.logId, rq.origin, {
      instance: rq.pathname,
      headers: rq.rateHeaders,
      errors: [{ pointer: "/header/idempotency-key", detail: REUSED[rq.culture] }],
    });
  }
  if (outcome.kind === "in-flight") {
    return problemResponse("idempotency-key-in-use", rq.culture, rq.logId, rq.origin, {
      instance: rq.pathname,
      headers: { ...rq.rateHeaders, "retry-after": "1" },
    });
  }
  return scope;
}

/** Stores the keyed write's response for replays (without its CORS headers), or abandons the key on a 5xx. */
export function completeWrite(rq: OperationRequest, scope: string, response: MockResponse): void {
  const store = rq.session.idempotency;
  if (response.status >= 500) {
    store.abandon(scope);
    return;
  }
  const { "access-control-allow-origin": _a, vary: _v, ...stored } = response.headers;
  store.complete(scope, {
    status: response.status,
    headers: { ...stored, vary: "Accept-Language" },
    body: response.body,
  });
}
