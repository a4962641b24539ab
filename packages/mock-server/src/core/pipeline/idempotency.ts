/**
 * The idempotency stage (draft-ietf-httpapi-idempotency-key-header): a keyed write is begun before it is answered —
 * a replay answers with the stored response, a reused key is a 422, a key still in flight a 409 — and `finish`
 * stores its response (or abandons the key on a 5xx). Without a key it only evicts a few expired keys.
 */

import { cors } from "../cors.ts";
import { fingerprint, IdempotencyStore } from "../idempotency-store.ts";
import { msg, pickText } from "../messages.ts";
import { stageProblem } from "../problems.ts";
import type { LocalizedText } from "../types.ts";
import { Answered, type Exchange, type Stage } from "./exchange.ts";

const REUSED: LocalizedText = msg("core.pipeline.idempotency.this-key-was-already-used-for");

/** Begins a keyed write (fills in `idempotencyScope`); a replay stops the request with the stored response. */
export function beginWrite(): Stage {
  return (ex) => {
    const session = ex.mockSession;
    const key = ex.idempotencyKey;
    if (key === null) {
      if (ex.op.write) session.idempotency.evict(ex.now);
      return;
    }
    const scope = IdempotencyStore.scope(caller(ex), ex.method, ex.pathname ?? "/", key);
    const outcome = session.idempotency.begin(scope, requestPrint(ex), ex.now);
    if (outcome.kind === "replay") {
      const stored = outcome.response;
      const headers: Record<string, string> = {
        ...stored.headers,
        ...ex.rateHeaders,
        "idempotent-replayed": "true",
      };
      throw new Answered(cors({ status: stored.status, headers, body: stored.body }, ex.origin));
    }
    if (outcome.kind === "reused") {
      // Names the header, so operations whose 422 is a ValidationProblem (errors required) get a conforming body.
      throw stageProblem("idempotency-key-reused", {
        errors: [{ pointer: "/header/idempotency-key", detail: pickText(REUSED, ex.culture) }],
      });
    }
    if (outcome.kind === "in-flight") {
      throw stageProblem("idempotency-key-in-use", {
        headers: { "retry-after": "1" },
      });
    }
    ex.idempotencyScope = scope;
  };
}

/** Whose key it is: the session or client of the bearer token; at the token endpoint, the client's credentials. */
function caller(ex: Exchange): string {
  const auth = ex.auth;
  if (auth) return auth.kind === "session" ? `session:${auth.sessionId}` : auth.clientId;
  if (ex.route?.oauth) return `oauth:${ex.headers.authorization ?? formClient(ex)}`;
  return "anonymous";
}

/** What makes two requests "the same" for a key: the parsed body; the token endpoint's form, fields in any order. */
function requestPrint(ex: Exchange): string {
  if (!ex.route?.oauth) return fingerprint(ex.body);
  const form = new URLSearchParams(latin1(ex.request.body));
  form.sort();
  return form.toString();
}

function formClient(ex: Exchange): string {
  return new URLSearchParams(latin1(ex.request.body)).get("client_id") ?? "";
}

const decoder = new TextDecoder("latin1");
function latin1(bytes: Uint8Array | null): string {
  return bytes ? decoder.decode(bytes) : "";
}
