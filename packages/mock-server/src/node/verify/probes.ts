/**
 * One probe per operation of the contract: a request whose answer, whatever it is, must be one the contract
 * declares (status, media type, body schema, headers, problem shape). Reads use ids found by earlier probes and the
 * journeys; where none was found they send an unknown id that matches the parameter's schema (unknown-ids.ts), and
 * the answer must then be a 404 problem (rule `unknown-id`: a server answering 200 with some other entity fails).
 * Writes (not under `--read-only`) send an empty JSON object with a fresh Idempotency-Key to an unknown resource:
 * the validation or not-found path.
 */
import { getPointer, type OperationSpec } from "../../core/document.ts";
import { entradaDocument } from "../../index.ts";
import type { Run, VerifyContext } from "./suite.ts";
import { unknownId } from "./unknown-ids.ts";

/** Which id a list operation's first item gives the detail operations (path parameter name ← list). */
const LISTS: Record<string, { param: string; member: string }> = {
  listEvents: { param: "eventId", member: "id" },
  listGates: { param: "gateId", member: "id" },
  listSurveys: { param: "surveyId", member: "id" },
  listImages: { param: "imageId", member: "id" },
  listIcons: { param: "iconName", member: "name" },
  listWebhookSubscriptions: { param: "subscriptionId", member: "id" },
  listWebhookDeliveries: { param: "deliveryId", member: "id" },
  listExternalImports: { param: "importId", member: "id" },
};

/** Values for parameters that are names rather than ids (`entitySet`), and the OData key's quoted form. */
const FIXED: Record<string, { value: string; unknown: boolean }> = {
  entitySet: { value: "Orders", unknown: false },
  key: { value: "'verify-unknown'", unknown: true },
};

function example(pointer: string | null): string {
  const schema = (pointer ? getPointer(entradaDocument, pointer) : undefined) as
    | { example?: unknown; default?: unknown; enum?: unknown[]; examples?: unknown[] }
    | undefined;
  const value = schema?.example ?? schema?.examples?.[0] ?? schema?.default ?? schema?.enum?.[0] ?? "verify";
  return String(value);
}

/** A probe's target: the path with its query, and the path parameters it filled with unknown ids. */
export interface ProbeTarget {
  path: string;
  unknown: Array<{ name: string; value: string }>;
  /** Path parameters no schema-conforming unknown value could be made for. */
  unmatched: string[];
}

/** The probe's path: the template with known ids (or unknown ones) and the required query parameters. */
export function probeTarget(op: OperationSpec, ids: Map<string, string>): ProbeTarget {
  const unknown: ProbeTarget["unknown"] = [];
  const unmatched: string[] = [];
  const path = op.template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const known = ids.get(name);
    if (known !== undefined) return encodeURIComponent(known);
    const fixed = FIXED[name];
    if (fixed) {
      if (fixed.unknown) unknown.push({ name, value: fixed.value });
      return encodeURIComponent(fixed.value);
    }
    const param = op.params.find((p) => p.in === "path" && p.name === name);
    const value = unknownId(param?.schemaPointer ?? null);
    if (value === null) {
      unmatched.push(name);
      return `verify_unknown_${name}`;
    }
    unknown.push({ name, value });
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams();
  for (const p of op.params)
    if (p.in === "query" && p.required) query.set(p.name, ids.get(p.name) ?? example(p.schemaPointer));
  const search = query.toString();
  return { path: search ? `${path}?${search}` : path, unknown, unmatched };
}

/** The headers and body of a probe: writes send `{}` with a fresh key (the validation or not-found path). */
export function probeInit(op: OperationSpec, headers: Record<string, string> = {}): RequestInit {
  const init: RequestInit = { method: op.method, headers: { "accept-language": "en-GB", ...headers } };
  if (op.write) {
    init.headers = {
      ...init.headers,
      "idempotency-key": `verify-${crypto.randomUUID()}`,
      ...(op.method !== "DELETE" ? { "content-type": "application/json" } : {}),
    };
    if (op.method !== "DELETE") init.body = "{}";
  }
  return init;
}

async function probe(ctx: VerifyContext, op: OperationSpec): Promise<void> {
  const target = probeTarget(op, ctx.ids);
  const response =
    op.operationId === "createToken"
      ? await ctx.client.token
          .createToken({ body: { grant_type: "client_credentials", scope: "Shop" } })
          .then((r) => r.response)
      : await ctx.client.fetch(`${ctx.baseUrl}${target.path}`, probeInit(op));
  const list = LISTS[op.operationId];
  if (list && response?.ok && !ctx.ids.has(list.param)) {
    const body = (await response.json().catch(() => null)) as {
      items?: Array<Record<string, unknown>>;
    } | null;
    const value = body?.items?.[0]?.[list.member];
    if (typeof value === "string") ctx.ids.set(list.param, value);
  }
  for (const name of target.unmatched)
    ctx.fail({
      operationId: op.operationId,
      rule: "unknown-id",
      pointer: `/path/${name}`,
      message: `No unknown ${name} could be made that matches its schema; the not-found path was not probed.`,
    });
  // A read of an unknown resource must say so: a declared 404 problem, never another entity or a 400.
  if (!op.write && response && target.unknown.length > 0 && response.status !== 404) {
    const sent = target.unknown.map((u) => `${u.name} ${u.value}`).join(", ");
    ctx.fail({
      operationId: op.operationId,
      rule: "unknown-id",
      pointer: "/status",
      message: `An unknown id (${sent}) must be a 404 problem, got ${response.status}.`,
    });
  }
}

/** Runs one probe per operation, reads first (lists before details), then writes. */
export async function runProbes(run: Run): Promise<void> {
  const ops = [...run.checker.operations].sort((a, b) => rank(a) - rank(b));
  for (const op of ops) {
    const skipped =
      op.write && op.operationId !== "createToken" && run.context.readOnly
        ? "a write; not sent under --read-only"
        : undefined;
    await run.case("operations", op.operationId, (ctx) => probe(ctx, op), skipped);
  }
}

function rank(op: OperationSpec): number {
  if (op.operationId === "createToken") return 0;
  if (op.write) return 3;
  return LISTS[op.operationId] ? 1 : 2;
}
