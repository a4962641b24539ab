import { defineSection, dynamicHandler } from "../../core/section.ts";
import type { Culture, HandlerResult, OperationContext, World } from "../../core/types.ts";
import { parseApplyQuery, runApplyQuery } from "./apply-query.ts";
import { feedCulture } from "./culture.ts";
import { countFeedRows, type FeedRows, findFeedRow, runFeedQuery } from "./feed-query.ts";
import { DEFAULT_HISTORY, type HistoryConfig } from "./history.ts";
import { historyIndex } from "./history-index.ts";
import { ENTITY_SETS, type EntitySetDef, metadataJson, metadataXml, propertyTypes } from "./model.ts";
import { badRequest, ODataError } from "./odata/errors.ts";
import type { Row } from "./odata/evaluate.ts";
import { parseEntitySetQuery } from "./odata/query.ts";
import { liveEntrances, liveOrders, livePayments, liveTickets } from "./rows.ts";

export { ODataError } from "./odata/errors.ts";
export { parseFilter, parseOrderBy, parseSelect } from "./odata/parser.ts";

export const BI = "bi";
/** Path of the service root below the API base. */
export const SERVICE_ROOT = "/bi/v1/odata/";
export const DEFAULT_PAGE_SIZE = 1000;
export const MAX_PAGE_SIZE = 5000;

/** The largest seeded history (`bi.history.orders`): 1,000,000 orders ≈ 1.9 million ticket rows. */
export const MAX_HISTORY_ORDERS = 1_000_000;

export interface BiState {
  /** The seeded history (generated deterministically, shared across sessions), or null for live data only. */
  history: HistoryConfig | null;
}

const ODATA_VERSION = { "odata-version": "4.0" };

function root(ctx: OperationContext): string {
  return `${ctx.url.origin}${ctx.url.pathname.slice(0, ctx.url.pathname.indexOf("/bi/v1/odata"))}${SERVICE_ROOT}`;
}

function first(ctx: OperationContext, name: string): string | undefined {
  const v = ctx.query[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Check `OData-MaxVersion` (the engine validates its enum; this guards direct use too). */
function checkVersion(ctx: OperationContext): void {
  const max = ctx.headers["odata-maxversion"];
  if (max !== undefined && !(Number.parseFloat(max) >= 4)) {
    throw badRequest("maxVersion", { value: max }, "OData-MaxVersion");
  }
}

/**
 * Run a handler body in the feed's culture (see `feedCulture`: English unless the client names another), turning
 * OData errors into OData JSON error responses in that same culture.
 */
function odata(ctx: OperationContext, run: (culture: Culture) => HandlerResult): HandlerResult {
  const culture = feedCulture(ctx.headers["accept-language"]);
  const headers = { ...ODATA_VERSION, "content-language": culture };
  try {
    checkVersion(ctx);
    const result = run(culture);
    return { ...result, headers: { ...headers, ...result.headers } };
  } catch (error) {
    if (error instanceof ODataError) {
      return {
        status: error.status,
        headers,
        // OData JSON errors are `application/json`, not problem+json (the engine's default for 4xx/5xx bodies).
        contentType: "application/json",
        body: error.render(culture, ctx.logId),
      };
    }
    throw error;
  }
}

/** The rows of a dataset: the seeded history (indexed, shared across sessions) and the world's live rows. */
function feedRows(world: World, set: EntitySetDef, culture: Culture): FeedRows {
  const state = world[BI] as BiState | undefined;
  const past = state?.history ? historyIndex(state.history) : null;
  let live: Row[];
  switch (set.name) {
    case "Orders":
      live = liveOrders(world);
      break;
    case "Tickets":
      live = liveTickets(world, culture);
      break;
    case "Payments":
      live = livePayments(world);
      break;
    default:
      live = liveEntrances(world, culture);
  }
  const history = past?.tables.find((t) => t.name === set.name) ?? null;
  return { history, live, culture };
}

/**
 * Indexes the world's seeded history now (it is otherwise indexed on the first feed request); null without one.
 * @example indexBiHistory(mock.core.session().world) // { rows: 3332499, tickets: 1059915, ms: 9100 }
 */
export function indexBiHistory(world: World): { rows: number; tickets: number; ms: number } | null {
  const state = world[BI] as BiState | undefined;
  if (!state?.history) return null;
  const started = performance.now();
  const index = historyIndex(state.history);
  const tickets = index.tables.find((t) => t.name === "Tickets")?.size ?? 0;
  return { rows: index.rows, tickets, ms: performance.now() - started };
}

/** `Prefer: odata.maxpagesize=n` (1–5000); larger values are capped, invalid ones ignored. */
function pageSize(ctx: OperationContext): { size: number; applied: string | null } {
  const prefer = ctx.headers.prefer;
  const match = prefer ? /(?:^|[,;\s])odata\.maxpagesize\s*=\s*"?(\d{1,9})"?/i.exec(prefer) : null;
  if (!match) return { size: DEFAULT_PAGE_SIZE, applied: null };
  const wanted = Number(match[1]);
  if (wanted < 1) return { size: DEFAULT_PAGE_SIZE, applied: null };
  const size = Math.min(wanted, MAX_PAGE_SIZE);
  return { size, applied: `odata.maxpagesize=${size}` };
}

/** The request URL with `$skiptoken` replaced, every other option kept exactly as sent. */
function nextLink(ctx: OperationContext, token: string): string {
  const raw = ctx.url.search.startsWith("?") ? ctx.url.search.slice(1) : ctx.url.search;
  const kept = raw.split("&").filter((part) => part !== "" && !/^(\$|%24)skiptoken=/i.test(part));
  kept.push(`$skiptoken=${token}`);
  return `${ctx.url.origin}${ctx.url.pathname}?${kept.join("&")}`;
}

function collection(name: string) {
  return (ctx: OperationContext): HandlerResult =>
    odata(ctx, (culture) => {
      const set = ENTITY_SETS.find((s) => s.name === name) as EntitySetDef;
      const { size, applied } = pageSize(ctx);
      // `$apply` (aggregation, see apply-query.ts) yields aggregated rows named by its groupby and aliases.
      const aggregated = ctx.query.$apply !== undefined;
      const query = aggregated
        ? parseApplyQuery(ctx.query, propertyTypes(set), set.name)
        : parseEntitySetQuery(ctx.query, propertyTypes(set), set.key, set.name);
      const rows = feedRows(ctx.world, set, culture);
      const page =
        "plan" in query
          ? runApplyQuery(rows, query, size)
          : runFeedQuery(rows, query, set.key, size, propertyTypes(set));
      const shape = "plan" in query ? (query.select ?? Object.keys(query.plan.output)) : query.select;
      const context = `${root(ctx)}$metadata#${set.name}${shape ? `(${shape.join(",")})` : ""}`;
      const body: Record<string, unknown> = { "@odata.context": context };
      if (page.count !== null) body["@odata.count"] = page.count;
      body.value = page.rows;
      if (page.nextSkipToken) body["@odata.nextLink"] = nextLink(ctx, page.nextSkipToken);
      const headers: Record<string, string> = applied ? { "preference-applied": applied } : {};
      return { status: 200, body, headers };
    });
}

/** The entity set a path names (`Orders`), or a 404 OData error naming it. */
function entitySet(name: string): EntitySetDef {
  const set = ENTITY_SETS.find((s) => s.name === name);
  if (!set) throw new ODataError(404, "NotFound", "notFound", { name }, null);
  return set;
}

/** `GET /{set}/$count`: the number of rows matching `$filter` as plain text (`$top`/`$skip` do not apply). */
function getBiEntityCount(ctx: OperationContext): HandlerResult {
  return odata(ctx, (culture) => {
    const set = entitySet(ctx.params.entitySet ?? "");
    const query = parseEntitySetQuery(ctx.query, propertyTypes(set), set.key, set.name);
    const count = countFeedRows(feedRows(ctx.world, set, culture), query, set.key, propertyTypes(set));
    return { status: 200, contentType: "text/plain; charset=utf-8", raw: String(count) };
  });
}

/** `GET /{set}('key')` or `/{set}(Key='key')`: one row by key, `$select` applies; unknown keys are 404. */
function getBiEntity(ctx: OperationContext): HandlerResult {
  return odata(ctx, (culture) => {
    const set = entitySet(ctx.params.entitySet ?? "");
    const key = parseKeyPredicate(ctx.params.key ?? "", set.key);
    const query = parseEntitySetQuery(ctx.query, propertyTypes(set), set.key, set.name);
    if (
      query.filter ||
      query.orderBy.length ||
      query.top !== null ||
      query.skip ||
      query.count ||
      query.skipToken
    )
      throw badRequest("singleEntityOption", { set: set.name }, null);
    const row = findFeedRow(feedRows(ctx.world, set, culture), set.key, key);
    if (!row) throw new ODataError(404, "NotFound", "entityNotFound", { set: set.name, key }, null);
    const selected = query.select ? Object.fromEntries(query.select.map((p) => [p, row[p] ?? null])) : row;
    const context = `${root(ctx)}$metadata#${set.name}${query.select ? `(${query.select.join(",")})` : ""}/$entity`;
    return { status: 200, body: { "@odata.context": context, ...selected } };
  });
}

/**
 * The key of a key predicate: `'ord_1'` or `OrderId='ord_1'` (quotes doubled inside, as OData escapes them).
 * Anything else is a 400 saying how to write it.
 */
function parseKeyPredicate(predicate: string, keyName: string): string {
  const m = /^(?:([A-Za-z_][A-Za-z0-9_]*)=)?'((?:[^']|'')*)'$/.exec(predicate.trim());
  if (!m || (m[1] !== undefined && m[1] !== keyName))
    throw badRequest("keyPredicate", { value: predicate, key: keyName }, keyName);
  return (m[2] as string).replace(/''/g, "'");
}

function getBiServiceDocument(ctx: OperationContext): HandlerResult {
  return odata(ctx, () => {
    const format = first(ctx, "$format");
    if (format !== undefined && !/^(json|application\/json)$/i.test(format)) {
      throw new ODataError(501, "NotImplemented", "unsupportedFormat", { value: format }, "$format");
    }
    return {
      status: 200,
      body: {
        "@odata.context": `${root(ctx)}$metadata`,
        value: ENTITY_SETS.map((s) => ({ name: s.name, kind: "EntitySet", url: s.name })),
      },
    };
  });
}

function getBiMetadata(ctx: OperationContext): HandlerResult {
  return odata(ctx, () => {
    const format = first(ctx, "$format");
    const accept = ctx.headers.accept ?? "";
    const json =
      format !== undefined
        ? /^(json|application\/json)$/i.test(format)
        : /application\/json/i.test(accept) && !/application\/xml|text\/xml/i.test(accept);
    const headers = { "cache-control": "public, max-age=3600" };
    if (json) return { status: 200, headers, body: metadataJson() };
    return { status: 200, headers, contentType: "application/xml", raw: metadataXml() };
  });
}

/** Business Intelligence: the read-only OData v4 feed over the world's history (seeded past + live data). */
const bi = defineSection<BiState>({
  name: BI,
  initialState(seed, clock) {
    const own = seed[BI] as { history?: Partial<Omit<HistoryConfig, "anchor">> | false } | undefined;
    if (own?.history === false) return { history: null };
    const history = { ...DEFAULT_HISTORY, ...(own?.history ?? {}), anchor: clock.now() };
    if (!Number.isInteger(history.orders) || history.orders < 0 || history.orders > MAX_HISTORY_ORDERS)
      throw new RangeError(
        `bi.history.orders must be an integer from 0 to ${MAX_HISTORY_ORDERS}, got ${history.orders}`,
      );
    return { history };
  },
  // The engine's own errors on the feed (auth, validation, rate limit, unknown entity set, 406) are OData JSON
  // too, in the feed's culture (English for no header or `*`, like its rows and its own errors).
  errorFormat: {
    pathPrefix: "/bi/v1/odata",
    culture: feedCulture,
    render: (problem) => ({
      contentType: "application/json",
      headers: { ...ODATA_VERSION },
      body: problemToODataError(problem),
    }),
  },
  // OData rows are shaped at run time by `$select`: registered as dynamic handlers (checked by response validation).
  handlers: {
    getBiServiceDocument: dynamicHandler(getBiServiceDocument),
    getBiMetadata: dynamicHandler(getBiMetadata),
    listBiOrders: dynamicHandler(collection("Orders")),
    listBiTickets: dynamicHandler(collection("Tickets")),
    listBiPayments: dynamicHandler(collection("Payments")),
    listBiEntrances: dynamicHandler(collection("Entrances")),
    getBiEntityCount: dynamicHandler(getBiEntityCount),
    getBiEntity: dynamicHandler(getBiEntity),
  },
});

export default bi;

const STATUS_CODES: Record<number, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  406: "NotAcceptable",
  413: "PayloadTooLarge",
  429: "TooManyRequests",
  501: "NotImplemented",
  503: "ServiceUnavailable",
};

/**
 * Turn an engine problem (auth, validation, rate limit) on a BI operation into the OData JSON error the contract
 * promises for the feed (`{error: {code, message, target, details, innererror: {logId}}}`, `application/json`,
 * `OData-Version: 4.0`). Pointers like `/query/$top` become targets like `$top`.
 * @example if (op.tag === "bi") response.body = JSON.stringify(problemToODataError(problem))
 */
export function problemToODataError(problem: {
  status: number;
  title?: string;
  detail?: string;
  logId?: string;
  errors?: { pointer: string; detail: string }[];
}): { error: Record<string, unknown> } {
  const target = (pointer: string) => pointer.replace(/^\/(query|header|path|body)\//, "");
  const first = problem.errors?.[0];
  return {
    error: {
      code: STATUS_CODES[problem.status] ?? (problem.status >= 500 ? "InternalError" : "BadRequest"),
      message: problem.detail ?? problem.title ?? "",
      target: first ? target(first.pointer) : null,
      details: (problem.errors ?? []).map((e) => ({
        code: STATUS_CODES[problem.status] ?? "BadRequest",
        message: e.detail,
        target: target(e.pointer),
      })),
      ...(problem.logId ? { innererror: { logId: problem.logId } } : {}),
    },
  };
}
