/**
 * One probe per operation of the contract: a request whose answer, whatever it is, must be one the contract
 * declares (status, media type, body schema, headers, problem shape). Reads use ids found by earlier probes and the
 * journeys (an unknown id must then be a declared 404 problem); writes (not under `--read-only`) send an empty
 * JSON object with a fresh Idempotency-Key to an unknown resource: the validation or not-found path.
 */
import { getPointer, type OperationSpec } from "../../core/document.ts";
import { entradaDocument } from "../../index.ts";
import type { Run, VerifyContext } from "./suite.ts";

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

/** Values for parameters no list gives. */
const FIXED: Record<string, string> = { entitySet: "Orders", key: "'verify-unknown'" };

function example(pointer: string | null): string {
  const schema = (pointer ? getPointer(entradaDocument, pointer) : undefined) as
    | { example?: unknown; default?: unknown; enum?: unknown[]; examples?: unknown[] }
    | undefined;
  const value = schema?.example ?? schema?.examples?.[0] ?? schema?.default ?? schema?.enum?.[0] ?? "verify";
  return String(value);
}

/** The probe's path: the template with known ids (or unknown ones) and the required query parameters. */
export function probePath(op: OperationSpec, ids: Map<string, string>): string {
  const path = op.template.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    encodeURIComponent(ids.get(name) ?? FIXED[name] ?? `verify_unknown_${name}`),
  );
  const query = new URLSearchParams();
  for (const p of op.params)
    if (p.in === "query" && p.required) query.set(p.name, ids.get(p.name) ?? example(p.schemaPointer));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

async function probe(ctx: VerifyContext, op: OperationSpec): Promise<void> {
  const init: RequestInit = { method: op.method, headers: { "accept-language": "en-GB" } };
  if (op.write) {
    init.headers = {
      "accept-language": "en-GB",
      "idempotency-key": `verify-${crypto.randomUUID()}`,
      ...(op.method !== "DELETE" ? { "content-type": "application/json" } : {}),
    };
    if (op.method !== "DELETE") init.body = "{}";
  }
  const response =
    op.operationId === "createToken"
      ? await ctx.client.token
          .createToken({ body: { grant_type: "client_credentials", scope: "Shop" } })
          .then((r) => r.response)
      : await ctx.client.fetch(`${ctx.baseUrl}${probePath(op, ctx.ids)}`, init);
  const list = LISTS[op.operationId];
  if (list && response?.ok && !ctx.ids.has(list.param)) {
    const body = (await response.json().catch(() => null)) as {
      items?: Array<Record<string, unknown>>;
    } | null;
    const value = body?.items?.[0]?.[list.member];
    if (typeof value === "string") ctx.ids.set(list.param, value);
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
