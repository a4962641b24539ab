/**
 * Developer controls under `/__mock` (no auth; per session via `X-Mock-Session` or `?mockSession=`).
 * Documented in the package README and listed by `GET /__mock`.
 */

import { buildContext, publishEvent } from "./context.ts";
import { htmlIndex } from "./control-page.ts";
import type { ControlServices } from "./control-services.ts";
import { parseFaultRule } from "./faults.ts";
import { randomToken } from "./ids.ts";
import { jsonBody } from "./json-text.ts";
import type { ClientConfig } from "./oauth.ts";
import { ProblemError } from "./problems.ts";
import { Router } from "./router.ts";
import type { MockSession } from "./session.ts";
import type { Culture, MockRequest, MockResponse, SeedData } from "./types.ts";

interface Control {
  method: string;
  path: string;
  description: string;
  run(input: ControlInput): MockResponse | Promise<MockResponse>;
}

interface ControlInput {
  core: ControlServices;
  session: MockSession;
  body: unknown;
  url: URL;
  params: Record<string, string>;
  logId: string;
  culture: Culture;
  request: MockRequest;
}

function json(status: number, body: unknown, logId: string): MockResponse {
  return {
    status,
    headers: { "content-type": "application/json", "x-log-id": logId, "cache-control": "no-store" },
    body: JSON.stringify(body),
  };
}

function bad(detail: string, pointer = "/body"): never {
  throw new ProblemError("validation-error", detail, { errors: [{ pointer, detail }] });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function clockState(session: MockSession) {
  const now = session.clock.now();
  return { now: new Date(now).toISOString(), epochMs: now, frozen: session.clock.frozen };
}

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
  {
    method: "POST",
    path: "/reset",
    description: "Reset this session's data to its seed (body optional: {seed} to replace the seed).",
    run: ({ session, body, logId }) => {
      if (body !== undefined && !(isObject(body) && (body.seed === undefined || isObject(body.seed)))) {
        bad('The body is optional; when sent it is {"seed": {...}}.');
      }
      const seed = isObject(body) && isObject(body.seed) ? (body.seed as SeedData) : undefined;
      session.reset(seed);
      return json(200, { reset: true, session: session.id, clock: clockState(session) }, logId);
    },
  },
  {
    method: "POST",
    path: "/seed",
    description: "Replace this session's seed with the JSON body (keyed by section) and reset to it.",
    run: ({ session, body, logId }) => {
      if (!isObject(body)) bad("The body is a seed: a JSON object keyed by section name.");
      session.reset(body as SeedData);
      return json(200, { seeded: true, session: session.id, sections: Object.keys(session.world) }, logId);
    },
  },
  {
    method: "GET",
    path: "/snapshot",
    description: "This session's whole state (world, seed, clock) as JSON, for /__mock/restore.",
    run: ({ session, logId }) =>
      json(
        200,
        {
          version: 1,
          session: session.id,
          clock: clockState(session),
          seed: session.seed,
          world: session.world,
        },
        logId,
      ),
  },
  {
    method: "POST",
    path: "/restore",
    description: "Restore a snapshot taken with GET /__mock/snapshot (the clock is restored too).",
    run: ({ session, body, logId }) => {
      if (!isObject(body) || body.version !== 1 || !isObject(body.world)) {
        bad("The body is a snapshot from GET /__mock/snapshot ({version: 1, world, ...}).");
      }
      const snapshot = body as {
        world: Record<string, unknown>;
        seed?: SeedData;
        clock?: { epochMs?: number; frozen?: boolean };
      };
      session.world = structuredClone(snapshot.world);
      if (isObject(snapshot.seed)) session.seed = snapshot.seed;
      if (typeof snapshot.clock?.epochMs === "number") {
        session.clock.set(snapshot.clock.epochMs);
        if (snapshot.clock.frozen) session.clock.freeze();
      }
      session.idempotency.clear();
      return json(200, { restored: true, session: session.id, clock: clockState(session) }, logId);
    },
  },
  {
    method: "GET",
    path: "/clock",
    description: "This session's clock.",
    run: ({ session, logId }) => json(200, clockState(session), logId),
  },
  {
    method: "POST",
    path: "/clock",
    description:
      "Move this session's clock: {advanceSeconds} | {advanceMs} | {set: RFC 3339} and/or {freeze: true|false}; {reset: true} returns to real time.",
    run: ({ session, body, logId }) => {
      if (!isObject(body)) bad('The body is a JSON object, e.g. {"advanceSeconds": 600}.');
      const b = body as Record<string, unknown>;
      const known = ["advanceSeconds", "advanceMs", "set", "freeze", "reset"];
      for (const key of Object.keys(b))
        if (!known.includes(key)) bad(`Unknown field "${key}".`, `/body/${key}`);
      if (b.reset === true) session.clock.reset();
      if (b.advanceSeconds !== undefined) {
        if (typeof b.advanceSeconds !== "number" || !Number.isFinite(b.advanceSeconds))
          bad("advanceSeconds is a number.", "/body/advanceSeconds");
        session.clock.advance((b.advanceSeconds as number) * 1000);
      }
      if (b.advanceMs !== undefined) {
        if (typeof b.advanceMs !== "number" || !Number.isFinite(b.advanceMs))
          bad("advanceMs is a number.", "/body/advanceMs");
        session.clock.advance(b.advanceMs as number);
      }
      if (b.set !== undefined) {
        const at = typeof b.set === "string" ? Date.parse(b.set) : Number.NaN;
        if (Number.isNaN(at)) bad("set is an RFC 3339 date-time.", "/body/set");
        session.clock.set(at);
      }
      if (b.freeze === true) session.clock.freeze();
      if (b.freeze === false) session.clock.unfreeze();
      return json(200, clockState(session), logId);
    },
  },
  {
    method: "GET",
    path: "/faults",
    description: "Active fault rules of this session.",
    run: ({ session, logId }) => json(200, { items: session.faults }, logId),
  },
  {
    method: "POST",
    path: "/faults",
    description:
      "Add fault rules: {kind: latency|error|rate-limit|unavailable|drop, latencyMs?, probability?, times?, operationId?, method?, path?, retryAfterSeconds?} or an array of them.",
    run: ({ session, body, logId }) => {
      const list = Array.isArray(body) ? body : [body];
      const added = list.map((item, i) => {
        const rule = parseFaultRule(item, `flt_${++session.faultCounter}`);
        if (typeof rule === "string") bad(rule, Array.isArray(body) ? `/body/${i}` : "/body");
        return rule;
      });
      session.faults.push(...added);
      return json(201, { items: added }, logId);
    },
  },
  {
    method: "DELETE",
    path: "/faults",
    description: "Remove every fault rule of this session.",
    run: ({ session, logId }) => {
      session.faults = [];
      return json(200, { items: [] }, logId);
    },
  },
  {
    method: "DELETE",
    path: "/faults/{faultId}",
    description: "Remove one fault rule.",
    run: ({ session, params, logId }) => {
      const before = session.faults.length;
      session.faults = session.faults.filter((f) => f.id !== params.faultId);
      if (session.faults.length === before)
        throw new ProblemError("not-found", `No fault rule ${params.faultId}.`);
      return json(200, { items: session.faults }, logId);
    },
  },
  {
    method: "GET",
    path: "/events",
    description: "Webhook events emitted in this session (newest last, up to 1000); ?type= filters.",
    run: ({ session, url, logId }) => {
      const type = url.searchParams.get("type");
      return json(
        200,
        { items: type ? session.events.filter((e) => e.type === type) : session.events },
        logId,
      );
    },
  },
  {
    method: "GET",
    path: "/clients",
    description: "OAuth clients of this session (secrets included: it is a mock).",
    run: ({ session, logId }) => json(200, { items: [...session.clients.values()] }, logId),
  },
  {
    method: "PUT",
    path: "/clients/{clientId}",
    description: "Create or replace a client: {secrets: [..1–2], scopes: [Shop|TERP]}.",
    run: ({ session, params, body, logId }) => {
      if (!isObject(body)) bad("The body is {secrets, scopes}.");
      const b = body as Record<string, unknown>;
      const secrets = b.secrets;
      const scopes = b.scopes;
      if (
        !Array.isArray(secrets) ||
        secrets.length < 1 ||
        secrets.length > 2 ||
        !secrets.every((s) => typeof s === "string" && s.length >= 8)
      ) {
        bad("secrets is an array of one or two strings of at least 8 characters.", "/body/secrets");
      }
      if (!Array.isArray(scopes) || !scopes.every((s) => s === "Shop" || s === "TERP")) {
        bad("scopes is an array of Shop and/or TERP.", "/body/scopes");
      }
      const client: ClientConfig = {
        clientId: params.clientId ?? "",
        secrets: secrets as string[],
        scopes: scopes as string[],
      };
      session.clients.set(client.clientId, client);
      return json(200, client, logId);
    },
  },
  {
    method: "POST",
    path: "/clients/{clientId}/rotate",
    description:
      "Rotate a client's secret: a new secret is added, the previous one stays valid until the next rotation.",
    run: ({ session, params, logId }) => {
      const client = session.clients.get(params.clientId ?? "");
      if (!client) throw new ProblemError("not-found", `No client ${params.clientId}.`);
      const secret = `sec_${randomToken(32, session.random)}`;
      client.secrets = [client.secrets[client.secrets.length - 1] ?? "", secret].filter((s) => s !== "");
      return json(200, { clientId: client.clientId, secret, validSecrets: client.secrets.length }, logId);
    },
  },
  {
    method: "POST",
    path: "/tokens/revoke",
    description: "Invalidate every access and session token of this session.",
    run: ({ session, logId }) => {
      const count = session.tokens.size;
      session.tokens.clear();
      return json(200, { revoked: count }, logId);
    },
  },
  {
    method: "GET",
    path: "/sessions",
    description: "Mock sessions alive in this process.",
    run: ({ core, logId }) =>
      json(
        200,
        {
          items: core
            .listSessions()
            .map((s) => ({ id: s.id, clock: clockState(s), events: s.events.length })),
        },
        logId,
      ),
  },
  {
    method: "DELETE",
    path: "/sessions/{sessionId}",
    description: "Forget a session entirely (it is re-created from the seed on its next request).",
    run: ({ core, params, logId }) => {
      if (!core.dropSession(params.sessionId ?? ""))
        throw new ProblemError("not-found", `No session ${params.sessionId}.`);
      return json(200, { deleted: params.sessionId }, logId);
    },
  },
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
  const media = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (media === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ProblemError("malformed-request", `The body is not valid JSON: ${(error as Error).message}`, {
      errors: [{ pointer: "/body", detail: "Not valid JSON." }],
    });
  }
}

export async function handleControl(
  core: ControlServices,
  session: MockSession,
  request: MockRequest,
  url: URL,
  pathname: string,
  culture: Culture,
  logId: string,
): Promise<MockResponse> {
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
        links: core,
        session,
        operationId: `control:${route.path}`,
        method,
        url,
        params: sectionMatch.params,
        query: Object.fromEntries(url.searchParams),
        headers: request.headers,
        body: parseControlBody(request),
        culture,
        auth: null,
        logId,
        // Controls publish at once (there is no handler outcome to wait for).
        publish: (type, data) => publishEvent(core.dispatchEvent, session, type, data),
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
      return core.problem("method-not-allowed", culture, logId, undefined, {
        instance: pathname,
        headers: { allow: allow.join(", ") },
      });
    return core.problem("not-found", culture, logId, undefined, {
      instance: pathname,
      detail: `No developer control at ${pathname}; GET /__mock lists them.`,
    });
  } catch (error) {
    if (error instanceof ProblemError) {
      const errors = error.extensions?.errors as Array<{ pointer: string; detail: string }> | undefined;
      const { errors: _e, ...rest } = error.extensions ?? {};
      return core.problem(error.slug, culture, logId, undefined, {
        instance: pathname,
        detail: error.detail,
        errors,
        extensions: rest,
        headers: error.headers,
      });
    }
    throw error;
  }
}
