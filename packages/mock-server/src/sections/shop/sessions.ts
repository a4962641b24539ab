/** Shop sessions (`POST /shop/v1/sessions`): the session tokens an embedded shop uses in the browser. */
import { msg } from "../../core/messages.ts";
import type { ContextOf, ResultOf } from "../../core/section.ts";
import { load, notFound } from "./common.ts";
import { iso } from "./views.ts";

/**
 * Issues a session token; with `sessionId`, renews that session. The registry (`ShopState.sessions`) lives in the
 * shop slice (reset, snapshot and restore with it). Insertion order is renewal order, so expired entries are
 * swept from the front: O(1) amortized per request, bounded memory.
 */
export function createSession(ctx: ContextOf<"createSession">): ResultOf<"createSession"> {
  const { state, now } = load(ctx);
  const body = ctx.body ?? {};
  const ttl = state.config.sessionTtlSeconds;
  if (!ctx.issueSessionToken) throw new Error("The engine does not issue session tokens.");
  state.sessions ??= {};
  const registry = state.sessions;
  for (const id in registry) {
    if ((registry[id]?.renewableUntil ?? 0) > now) break;
    delete registry[id];
  }
  const clientId = ctx.auth?.clientId ?? "anonymous";
  // Renewal: a new token for the same shop session, so its carts, orders and payments stay visible.
  // Earlier tokens are not revoked; each stays valid until its own expiry.
  const renewed = body.sessionId === undefined ? undefined : registry[body.sessionId];
  if (body.sessionId !== undefined && renewed === undefined) {
    notFound(ctx, msg("shop.checkout.there-is-no-shop-session-create", { sessionId: body.sessionId }));
  }
  if (renewed !== undefined && renewed.clientId !== clientId) {
    ctx.problem("forbidden", ctx.text(msg("shop.checkout.only-the-api-client-that-created")));
  }
  const sessionId = body.sessionId ?? ctx.id("ses");
  const allowedOrigins =
    body.allowedOrigins === undefined ? (renewed?.allowedOrigins ?? []) : [...new Set(body.allowedOrigins)];
  delete registry[sessionId]; // re-inserted last: the registry stays ordered by renewableUntil
  const { cartTtlSeconds, cartRetentionSeconds } = state.config;
  registry[sessionId] = {
    clientId,
    allowedOrigins,
    renewableUntil: now + (ttl + cartTtlSeconds + cartRetentionSeconds) * 1000,
  };
  const { token, expiresAt } = ctx.issueSessionToken({ sessionId, ttlSeconds: ttl, allowedOrigins });
  return {
    status: 201,
    headers: { "cache-control": "no-store" },
    body: {
      sessionId,
      sessionToken: token,
      tokenType: "Bearer",
      expiresAt: iso(expiresAt),
      expiresIn: ttl,
      allowedOrigins: [...allowedOrigins],
    },
  };
}
