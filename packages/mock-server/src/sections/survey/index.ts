import { pickText } from "../../core/culture.ts";
import { apiUrl } from "../../core/links.ts";
import { msg } from "../../core/messages.ts";
import { type ContextOf, defineSection, type ResultOf } from "../../core/section.ts";
import { positiveInt } from "../../core/seed-values.ts";
import type { LocalizedText, OperationContext, World } from "../../core/types.ts";
import { detail } from "../shared/details.ts";
import { paginate, queryParam } from "../shared/paging.ts";
import { shopEvents, shopOrders, shopTickets } from "../shared/shop-view.ts";
import {
  DEFAULT_MAX_RESPONSES,
  SURVEY,
  type SurveyRecord,
  type SurveyResponseRecord,
  type SurveyState,
} from "./model.ts";
import seedJson from "./seed/surveys.json" with { type: "json" };
import { validateSurveyAnswers } from "./validate.ts";

/**
 * Default surveys, as data: `seed/surveys.json` (checked against `seed/surveys.schema.json` by a test). The shop
 * seed references them by id from events (`Event.surveyId`): `srv_festival` (festivals and concerts),
 * `srv_conference` (conferences, with company and dietary questions), and `srv_feedback2025`, a closed survey
 * (reads, but rejects responses with 409).
 */
export const DEFAULT_SURVEYS = (seedJson as { surveys: SurveyRecord[] }).surveys;

export type { SurveyRecord } from "./model.ts";
export type { AnswerError } from "./validate.ts";
export { validateAnswersForSurveys, validateSurveyAnswers, visibleQuestions } from "./validate.ts";

const RULES_FAILED: LocalizedText = msg("survey.answers-break-the-survey-s-rules");

export function surveySlice(world: World): SurveyState {
  return world[SURVEY] as SurveyState;
}

/** The survey record, for the shop's `setCartCustomer` (validate `surveyAnswers` with `validateSurveyAnswers`). */
export function findSurvey(world: World, surveyId: string): SurveyRecord | null {
  return (world[SURVEY] as SurveyState | undefined)?.surveys[surveyId] ?? null;
}

/** The survey's event: explicit, else the first shop event that names the survey. */
function eventOf(world: World, s: SurveyRecord): string | null {
  return s.eventId ?? shopEvents(world).find((e) => e.surveyId === s.id)?.id ?? null;
}

function surveyForEvent(world: World, s: SurveyRecord, eventId: string): boolean {
  if (s.eventId) return s.eventId === eventId;
  return shopEvents(world).some((e) => e.id === eventId && e.surveyId === s.id);
}

const loc = (ctx: OperationContext, v: LocalizedText | null) =>
  v === null ? null : pickText(v, ctx.culture);

function surveyJson(ctx: OperationContext, s: SurveyRecord) {
  return {
    id: s.id,
    eventId: eventOf(ctx.world, s),
    title: ctx.text(s.title),
    description: loc(ctx, s.description),
    status: s.status,
    questions: s.questions.map((q) => {
      const { patternMessage, ...rules } = q.validation;
      return {
        id: q.id,
        type: q.type,
        label: ctx.text(q.label),
        help: loc(ctx, q.help),
        placeholder: loc(ctx, q.placeholder),
        options: q.options?.map((o) => ({ value: o.value, label: ctx.text(o.label) })) ?? null,
        validation: { ...rules, ...(patternMessage ? { patternMessage: ctx.text(patternMessage) } : {}) },
        visibleIf: q.visibleIf,
      };
    }),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

function getSurveyOr404(ctx: OperationContext): SurveyRecord {
  const id = ctx.params.surveyId as string;
  const survey = surveySlice(ctx.world).surveys[id];
  if (!survey) ctx.problem("not-found", detail(ctx, "noSurvey", { id }));
  return survey;
}

function listSurveys(ctx: ContextOf<"listSurveys">): ResultOf<"listSurveys"> {
  const state = surveySlice(ctx.world);
  const eventId = queryParam(ctx, "eventId");
  const status = queryParam(ctx, "status");
  const items = state.surveyOrder
    .map((id) => state.surveys[id] as SurveyRecord)
    .filter(
      (s) =>
        (status === undefined || s.status === status) &&
        (eventId === undefined || surveyForEvent(ctx.world, s, eventId)),
    );
  const page = paginate(ctx, items, { position: (s, index) => [index, s.id] });
  return {
    status: 200,
    body: {
      items: page.items.map((s) => ({
        id: s.id,
        eventId: eventOf(ctx.world, s),
        title: ctx.text(s.title),
        description: loc(ctx, s.description),
        status: s.status,
        questionCount: s.questions.length,
        updatedAt: s.updatedAt,
      })),
      nextCursor: page.nextCursor,
    },
  };
}

function getSurvey(ctx: ContextOf<"getSurvey">): ResultOf<"getSurvey"> {
  return { status: 200, body: surveyJson(ctx, getSurveyOr404(ctx)) };
}

function submitSurveyResponse(ctx: ContextOf<"submitSurveyResponse">): ResultOf<"submitSurveyResponse"> {
  const survey = getSurveyOr404(ctx);
  const body = ctx.body;
  if (survey.status === "closed") ctx.problem("conflict", detail(ctx, "surveyClosed", { id: survey.id }));
  const errors = validateSurveyAnswers(survey, body.answers, { culture: ctx.culture });
  if (body.orderId !== undefined && !shopOrders(ctx.world).some((o) => o.id === body.orderId)) {
    errors.push({
      pointer: "/body/orderId",
      detail: ctx.text(msg("survey.unknown-order")),
    });
  }
  if (body.ticketId !== undefined && !shopTickets(ctx.world).some((x) => x.id === body.ticketId)) {
    errors.push({
      pointer: "/body/ticketId",
      detail: ctx.text(msg("survey.unknown-ticket")),
    });
  }
  if (errors.length > 0) {
    ctx.problem("unprocessable", ctx.text(RULES_FAILED).replace("{n}", String(errors.length)), { errors });
  }
  const state = surveySlice(ctx.world);
  const record: SurveyResponseRecord = {
    id: ctx.id("srr"),
    surveyId: survey.id,
    answers: structuredClone(body.answers),
    orderId: body.orderId ?? null,
    ticketId: body.ticketId ?? null,
    submittedAt: new Date(ctx.clock.now()).toISOString(),
  };
  const list = state.responses[survey.id] ?? [];
  list.push(record);
  const over = list.length - (state.maxResponses ?? DEFAULT_MAX_RESPONSES);
  if (over > 0) list.splice(0, over);
  state.responses[survey.id] = list;
  return {
    status: 201,
    headers: { location: apiUrl(ctx, `/survey/v1/surveys/${survey.id}/responses`) },
    body: { ...record, answers: structuredClone(record.answers) },
  };
}

function listSurveyResponses(ctx: ContextOf<"listSurveyResponses">): ResultOf<"listSurveyResponses"> {
  const survey = getSurveyOr404(ctx);
  const from = queryParam(ctx, "submittedFrom");
  const items = [...(surveySlice(ctx.world).responses[survey.id] ?? [])]
    .filter((r) => from === undefined || Date.parse(r.submittedAt) >= Date.parse(from))
    .reverse();
  const page = paginate(ctx, items, { position: (r) => [r.submittedAt, r.id], descending: true });
  return {
    status: 200,
    body: { items: page.items.map((r) => structuredClone(r)), nextCursor: page.nextCursor },
  };
}

/** Survey: seeded surveys with dynamic forms in four cultures; responses validated against the form's rules. */
const survey = defineSection<SurveyState>({
  name: SURVEY,
  initialState(seed) {
    const own = seed[SURVEY] as { surveys?: SurveyRecord[]; maxResponses?: unknown } | undefined;
    const surveys = structuredClone(own?.surveys ?? DEFAULT_SURVEYS);
    return {
      surveys: Object.fromEntries(surveys.map((s) => [s.id, s])),
      surveyOrder: surveys.map((s) => s.id),
      responses: {},
      maxResponses: positiveInt(own?.maxResponses, DEFAULT_MAX_RESPONSES),
    };
  },
  // O(surveys): surveys come from the seed only, so this stays a handful of additions.
  retained: (state) => {
    let count = 0;
    for (const id of state.surveyOrder) count += state.responses[id]?.length ?? 0;
    return count;
  },
  handlers: { listSurveys, getSurvey, submitSurveyResponse, listSurveyResponses },
});

export default survey;
