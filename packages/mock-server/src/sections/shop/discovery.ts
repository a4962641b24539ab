import { CULTURES, DEFAULT_CULTURE } from "../../core/culture.ts";
import { apiUrl } from "../../core/links.ts";
import { cultureName, msg } from "../../core/messages.ts";
import type { ContextOf, ResultOf } from "../../core/section.ts";
import type { OperationContext } from "../../core/types.ts";
import { load, notFound } from "./common.ts";
import { DEFAULT_TIME_ZONE, type EventRecord, type ShopState } from "./state.ts";
import {
  assortmentViews,
  eventCursor,
  eventDetail,
  eventPage,
  eventSummary,
  slotViews,
  venueView,
} from "./views.ts";

export function getSystemConfiguration(
  ctx: ContextOf<"getSystemConfiguration">,
): ResultOf<"getSystemConfiguration"> {
  const { state } = load(ctx);
  return {
    status: 200,
    body: {
      cultures: CULTURES.map((tag) => ({
        tag,
        name: cultureName(tag),
        default: tag === DEFAULT_CULTURE,
      })),
      currencies: state.config.currencies.map((code) => ({
        code,
        default: code === state.config.defaultCurrency,
      })),
      paymentProviders: state.config.paymentProviders.map((p) => ({
        id: p.id,
        name: ctx.text(p.name),
        kind: p.kind,
      })),
      features: { surveys: true, sessionTokens: true, analytics: true, quicodes: true },
      holdDurationSeconds: state.config.holdDurationSeconds,
    },
  };
}

export function listVenues(ctx: ContextOf<"listVenues">): ResultOf<"listVenues"> {
  const { state } = load(ctx);
  return { status: 200, body: { items: state.venueOrder.map((id) => venueView(state, id, ctx.culture)) } };
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function localDate(iso: string, timeZone: string): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    dateFormats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

function decodeCursor(ctx: OperationContext, cursor: string): string {
  try {
    const json = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    const value = JSON.parse(json) as { after?: unknown };
    if (typeof value.after === "string" && /^evt_[0-9A-Za-z]{1,60}$/.test(value.after)) return value.after;
  } catch {
    // fall through to the problem below
  }
  const detail = ctx.text(msg("shop.discovery.the-cursor-is-not-valid-use"));
  return ctx.problem("validation-error", detail, { errors: [{ pointer: "/query/cursor", detail }] });
}

type EventListItem = ReturnType<typeof eventSummary> & {
  slots?: ReturnType<typeof slotViews>;
  pricingAssortments?: ReturnType<typeof assortmentViews>;
};

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** What `include` asks to embed; the request validator has already refused values outside the contract's enum. */
function includes(value: string | string[] | undefined): { slots: boolean; assortments: boolean } {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return { slots: list.includes("slots"), assortments: list.includes("assortments") };
}

export function listEvents(ctx: ContextOf<"listEvents">): ResultOf<"listEvents"> {
  const { state } = load(ctx);
  const include = includes(ctx.query.include);
  const dateFrom = single(ctx.query.dateFrom);
  const dateTo = single(ctx.query.dateTo);
  const venueId = single(ctx.query.venueId);
  const slug = single(ctx.query.slug);
  const limit = Number(single(ctx.query.limit) ?? 20);
  const cursor = single(ctx.query.cursor);
  if (dateFrom && dateTo && dateTo < dateFrom) {
    const detail = ctx.text(msg("shop.discovery.dateto-must-not-be-before-datefrom"));
    ctx.problem("validation-error", detail, { errors: [{ pointer: "/query/dateTo", detail }] });
  }
  const after = cursor ? decodeCursor(ctx, cursor) : null;
  let start = 0;
  if (after) {
    const position = state.eventOrder.indexOf(after);
    start = position < 0 ? state.eventOrder.length : position + 1;
  }
  const matches = (event: EventRecord): boolean => {
    if (venueId && event.venueId !== venueId) return false;
    if (slug && event.slug !== slug) return false;
    if (dateFrom || dateTo) {
      const tz = state.venues[event.venueId]?.timeZone ?? DEFAULT_TIME_ZONE;
      const slots = event.slotIds.map((id) => state.slots[id]).filter((s) => s !== undefined);
      const first = slots[0];
      const last = slots[slots.length - 1];
      if (!first || !last) return false;
      if (dateFrom && localDate(last.endsAt, tz) < dateFrom) return false;
      if (dateTo && localDate(first.startsAt, tz) > dateTo) return false;
    }
    return true;
  };
  const currency = state.config.defaultCurrency;
  const baseUrl = apiUrl(ctx, "");
  const events: EventRecord[] = [];
  let more = false;
  for (let i = start; i < state.eventOrder.length; i++) {
    const event = state.events[state.eventOrder[i] ?? ""];
    if (!event || !matches(event)) continue;
    if (events.length === limit) {
      more = true;
      break;
    }
    events.push(event);
  }
  // Light summaries: the serialized page is cached (views.ts). With `include`, only this page's events are
  // rendered, and only the parts asked for (slots are live, so never cached).
  if (!include.slots && !include.assortments)
    return { status: 200, body: eventPage(state, events, more, ctx.culture, currency, baseUrl) };
  const nextCursor = more ? eventCursor(events[events.length - 1]?.id ?? "") : null;
  const items = events.map((event): EventListItem => {
    const item: EventListItem = eventSummary(state, event, ctx.culture, currency, baseUrl);
    if (include.slots) item.slots = slotViews(state, event);
    if (include.assortments) item.pricingAssortments = assortmentViews(state, event, ctx.culture, currency);
    return item;
  });
  return { status: 200, body: { items, nextCursor } };
}

export function findEvent(ctx: OperationContext, state: ShopState, id: string): EventRecord {
  const event = state.events[id];
  if (!event) {
    return notFound(ctx, msg("shop.discovery.there-is-no-event", { id }));
  }
  return event;
}

export function getEvent(ctx: ContextOf<"getEvent">): ResultOf<"getEvent"> {
  const { state } = load(ctx);
  const event = findEvent(ctx, state, ctx.params.eventId ?? "");
  return {
    status: 200,
    body: eventDetail(state, event, ctx.culture, state.config.defaultCurrency, apiUrl(ctx, "")),
  };
}
