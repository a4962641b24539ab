/**
 * Negative authentication probes, per operation that needs credentials (RFC 6750 and the contract's
 * `WWW-Authenticate` header): the same request as the operation's probe, with
 *
 *   no token       → 401 with the bare challenge `Bearer realm="…"` (no error code)
 *   forged token   → 401 with `error="invalid_token"` (a random opaque token, and a real one with its end changed)
 *   expired token  → 401 with `error="invalid_token"` (see `expiredToken` for where it comes from)
 *   wrong scope    → 403 with `error="insufficient_scope"` (a token of a scope none of the operation's
 *                    alternatives is satisfied by; skipped when the client cannot get one)
 *
 * Each is its own case (`<operationId>: no token`, …), so a report shows every operation and rule. Under
 * `--read-only` only reads are probed. Auth is checked before anything else, so a write probe changes nothing on a
 * conforming server.
 */
import type { OperationSpec } from "../../core/document.ts";
import { probeInit, probeTarget } from "./probes.ts";
import type { Run, VerifyContext } from "./suite.ts";

/** The scopes the contract defines (`oauth2` client credentials). */
const SCOPES = ["Shop", "TERP"] as const;

interface Expectation {
  status: 401 | 403;
  /** What the challenge must say: no error code, or this one. */
  error: null | "invalid_token" | "insufficient_scope";
}

/** Checks one answer of a negative probe: its status and its `WWW-Authenticate` challenge. */
function expectRefused(
  ctx: VerifyContext,
  op: OperationSpec,
  response: Response,
  expected: Expectation,
): void {
  const challenge = response.headers.get("www-authenticate");
  const fail = (pointer: string, message: string) =>
    ctx.fail({ operationId: op.operationId, rule: "auth", pointer, message });
  if (response.status !== expected.status) {
    fail(
      "/status",
      `Expected ${expected.status}${expected.error ? ` ${expected.error}` : " (no token)"}, got ${response.status}: the request was not refused as the contract says.`,
    );
    return;
  }
  if (challenge === null || !/^Bearer\b/i.test(challenge)) {
    fail(
      "/header/www-authenticate",
      `A ${expected.status} must carry a Bearer challenge, got ${challenge ?? "none"}.`,
    );
    return;
  }
  const error = /\berror="([^"]*)"/.exec(challenge)?.[1] ?? null;
  if (error !== expected.error)
    fail(
      "/header/www-authenticate",
      expected.error === null
        ? `A request without a token gets the bare challenge (no error code, RFC 6750 §3.1), got ${challenge}.`
        : `Expected error="${expected.error}" in the challenge, got ${challenge}.`,
    );
}

interface Grant {
  access_token?: unknown;
  expires_in?: unknown;
}

/** The client's token request for these scopes (headers added, e.g. the mock's session), or null on no answer. */
async function grant(
  ctx: VerifyContext,
  scope: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Grant | null } | null> {
  const { clientId, clientSecret } = ctx.credentials;
  try {
    const response = await ctx.send(`${ctx.baseUrl}/connect/token`, {
      method: "POST",
      headers: {
        ...headers,
        authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ grant_type: "client_credentials", scope }).toString(),
    });
    const body = response.ok ? ((await response.json().catch(() => null)) as Grant | null) : null;
    return { status: response.status, body };
  } catch {
    // No answer: the probes that need the token say why they did not run.
    return null;
  }
}

/** A token of exactly one scope, or null when the client may not have one (the probes needing it are skipped). */
async function tokenOf(ctx: VerifyContext, scope: string): Promise<string | null> {
  const token = (await grant(ctx, scope))?.body?.access_token;
  return typeof token === "string" ? token : null;
}

/** An expired token and the headers to send with it, or why the expired-token probes cannot run. */
type Expired = { token: string; headers: Record<string, string>; cleanUp?: () => Promise<void> } | string;

/**
 * An expired token. A client-credentials client cannot ask a server for one, so it is the integrator's
 * (`--expired-token`, kept from an earlier run), or — against the mock, found by its clock control — one made in
 * a session of its own whose clock is then moved past the token's lifetime, so the other probes keep real time.
 */
async function expiredToken(ctx: VerifyContext): Promise<Expired> {
  if (ctx.expiredToken) return { token: ctx.expiredToken, headers: {} };
  const skipped =
    "no expired token: pass one kept from an earlier run with --expired-token <token> (or ENTRADA_EXPIRED_TOKEN)";
  const session = { "x-mock-session": `verify-expired-${crypto.randomUUID()}` };
  try {
    const clock = await ctx.send(`${ctx.baseUrl}/__mock/clock`, { headers: session });
    const state = clock.ok ? ((await clock.json().catch(() => null)) as { epochMs?: unknown } | null) : null;
    if (typeof state?.epochMs !== "number") return skipped;
    // The session exists from here on: it is deleted whatever follows.
    const cleanUp = async () => {
      await ctx.send(`${ctx.baseUrl}/__mock/sessions/${session["x-mock-session"]}`, { method: "DELETE" });
    };
    const answer = await grant(ctx, SCOPES.join(" "), session);
    const body = answer?.body;
    if (typeof body?.access_token !== "string" || typeof body.expires_in !== "number") {
      await cleanUp();
      return `${skipped} (the mock gave no token: ${answer?.status ?? "no answer"})`;
    }
    const moved = await ctx.send(`${ctx.baseUrl}/__mock/clock`, {
      method: "POST",
      headers: { ...session, "content-type": "application/json" },
      body: JSON.stringify({ advanceSeconds: body.expires_in + 60 }),
    });
    if (!moved.ok) {
      await cleanUp();
      return `${skipped} (the mock's clock did not move: ${moved.status})`;
    }
    return { token: body.access_token, headers: session, cleanUp };
  } catch {
    // Not the mock, or no answer: the cases say how to run them.
    return skipped;
  }
}

/** A scope whose token satisfies none of the operation's alternatives, if the contract has one. */
function wrongScope(op: OperationSpec): string | undefined {
  return SCOPES.find((scope) => !op.security.scopeSets.some((set) => set.every((s) => s === scope)));
}

/**
 * Sends the operation's probe with these headers. The probes triple the requests of a run, so a `429` with a short
 * `Retry-After` (at most 10 s) is waited out once rather than reported as the answer to the credentials.
 */
async function send(
  ctx: VerifyContext,
  op: OperationSpec,
  headers: Record<string, string>,
): Promise<Response> {
  // Known ids where there are some, so the credentials are the one thing wrong.
  const url = `${ctx.baseUrl}${probeTarget(op, ctx.ids).path}`;
  const response = await ctx.send(url, probeInit(op, headers));
  const wait = Number(response.headers.get("retry-after"));
  if (response.status !== 429 || !Number.isFinite(wait) || wait < 0 || wait > 10) return response;
  await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  return ctx.send(url, probeInit(op, headers));
}

/** Whether the operation needs credentials at all (the token endpoint authenticates clients, not tokens). */
function protectedOperation(op: OperationSpec): boolean {
  return op.operationId !== "createToken" && (op.security.scopeSets.length > 0 || op.security.session);
}

export async function runAuthProbes(run: Run): Promise<void> {
  const tokens = new Map<string, string | null>();
  for (const scope of SCOPES) tokens.set(scope, await tokenOf(run.context, scope));
  const expired = await expiredToken(run.context);
  try {
    await probeEach(run, tokens, expired);
  } finally {
    if (typeof expired !== "string") await expired.cleanUp?.().catch(() => {});
  }
}

async function probeEach(run: Run, tokens: Map<string, string | null>, expired: Expired): Promise<void> {
  for (const op of run.checker.operations) {
    if (!protectedOperation(op)) continue;
    const readOnly = op.write && run.context.readOnly ? "a write; not sent under --read-only" : undefined;
    if (!op.security.public)
      await run.case(
        "authentication",
        `${op.operationId}: no token`,
        async (ctx) => expectRefused(ctx, op, await send(ctx, op, {}), { status: 401, error: null }),
        readOnly,
      );
    await run.case(
      "authentication",
      `${op.operationId}: forged token`,
      async (ctx) => {
        const forged = `verify-forged-${crypto.randomUUID().replaceAll("-", "")}`;
        expectRefused(ctx, op, await send(ctx, op, { authorization: `Bearer ${forged}` }), {
          status: 401,
          error: "invalid_token",
        });
        const real = tokens.get(op.security.scopeSets[0]?.[0] ?? "Shop");
        if (!real) return;
        const tampered = `${real.slice(0, -4)}${real.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
        expectRefused(ctx, op, await send(ctx, op, { authorization: `Bearer ${tampered}` }), {
          status: 401,
          error: "invalid_token",
        });
      },
      readOnly,
    );
    await run.case(
      "authentication",
      `${op.operationId}: expired token`,
      async (ctx) => {
        if (typeof expired === "string") return;
        const headers = { ...expired.headers, authorization: `Bearer ${expired.token}` };
        expectRefused(ctx, op, await send(ctx, op, headers), { status: 401, error: "invalid_token" });
      },
      readOnly ?? (typeof expired === "string" ? expired : undefined),
    );
    const scope = wrongScope(op);
    if (scope === undefined) continue;
    const token = tokens.get(scope) ?? null;
    await run.case(
      "authentication",
      `${op.operationId}: token without the scope`,
      async (ctx) =>
        expectRefused(ctx, op, await send(ctx, op, { authorization: `Bearer ${token}` }), {
          status: 403,
          error: "insufficient_scope",
        }),
      readOnly ?? (token === null ? `the client got no token of the scope ${scope} alone` : undefined),
    );
  }
}
