/**
 * The survey's server-side validation: the shared rules of `@entrada/sdk/survey` (visibility, "answered", each
 * question's bounds — the same code the embedded shop runs) plus what only a server checks (JSON types, unknown
 * questions, answers to hidden questions, option membership, calendar dates), with localized messages.
 */

import {
  isAnswered,
  type RuleQuestion,
  type SurveyAnswer,
  type SurveyIssue,
  visibleQuestions as shownQuestions,
  validateAnswer,
} from "@entrada/sdk/survey";
import { pickText } from "../../core/culture.ts";
import { msg } from "../../core/messages.ts";
import type { Culture, LocalizedText } from "../../core/types.ts";
import type { AnswerValue, QuestionRecord, SurveyRecord } from "./model.ts";

export { isAnswered };

export interface AnswerError {
  pointer: string;
  detail: string;
}

const M = {
  unknown: msg("survey.validate.the-survey-has-no-such-question"),
  hidden: msg("survey.validate.this-question-is-hidden-given-the"),
  required: msg("survey.validate.please-answer-this-question"),
  string: msg("survey.validate.a-text-is-expected"),
  number: msg("survey.validate.a-number-is-expected"),
  boolean: msg("survey.validate.true-or-false-is-expected"),
  array: msg("survey.validate.a-list-of-option-values-is"),
  option: msg("survey.validate.is-not-an-option-of-this"),
  duplicateOption: msg("survey.validate.the-option-is-selected-twice"),
  email: msg("survey.validate.please-enter-a-valid-e-mail"),
  date: msg("survey.validate.a-date-in-the-form-yyyy"),
  min: msg("survey.validate.the-value-must-be-at-least"),
  max: msg("survey.validate.the-value-must-be-at-most"),
  minCount: msg("survey.validate.please-choose-at-least-options"),
  maxCount: msg("survey.validate.please-choose-at-most-options"),
  minLength: msg("survey.validate.the-text-must-be-at-least"),
  maxLength: msg("survey.validate.the-text-must-be-at-most"),
  pattern: msg("survey.validate.the-input-does-not-have-the"),
  minDate: msg("survey.validate.the-date-must-not-be-before"),
  maxDate: msg("survey.validate.the-date-must-not-be-after"),
} satisfies Record<string, LocalizedText>;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** A question as the shared rules read it (the survey's own pattern message is localized here, not there). */
function rules(q: QuestionRecord): RuleQuestion {
  const { patternMessage: _, ...validation } = q.validation;
  return { id: q.id, type: q.type, validation, visibleIf: q.visibleIf };
}

/**
 * Which questions are visible for these answers. Conditions refer to earlier questions; the answer of a hidden
 * question counts as absent, so hiding cascades down the form.
 */
export function visibleQuestions(
  survey: Pick<SurveyRecord, "questions">,
  answers: Record<string, unknown>,
): Set<string> {
  const shown = shownQuestions(
    { questions: survey.questions.map(rules) },
    answers as Record<string, SurveyAnswer>,
  );
  return new Set(shown.map((q) => q.id));
}

function fill(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ""));
}

/** What only a server checks: the answer's JSON type, option membership, a real calendar date. */
function typeProblem(q: QuestionRecord, v: unknown): [LocalizedText, Record<string, string>?] | null {
  switch (q.type) {
    case "text":
    case "email":
      return typeof v === "string" ? null : [M.string];
    case "number":
      return typeof v === "number" && Number.isFinite(v) ? null : [M.number];
    case "boolean":
      return typeof v === "boolean" ? null : [M.boolean];
    case "single-choice":
      if (typeof v !== "string") return [M.string];
      return q.options?.some((o) => o.value === v) ? null : [M.option, { value: v }];
    case "multi-choice": {
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) return [M.array];
      const seen = new Set<string>();
      for (const x of v as string[]) {
        if (!q.options?.some((o) => o.value === x)) return [M.option, { value: x }];
        if (seen.has(x)) return [M.duplicateOption, { value: x }];
        seen.add(x);
      }
      return null;
    }
    case "date":
      return typeof v === "string" && isDate(v) ? null : [M.date];
  }
}

/** The localized message of a shared-rule issue. */
function issueMessage(
  q: QuestionRecord,
  issue: SurveyIssue,
  culture: Culture,
): [LocalizedText, Record<string, string | number>?] {
  const n = issue.count ?? "";
  const day = (d: string | number) =>
    new Intl.DateTimeFormat(culture, { dateStyle: "long", timeZone: "UTC" }).format(
      Date.parse(`${d}T00:00:00Z`),
    );
  switch (issue.key) {
    case "required":
      return [M.required];
    case "email":
      return [M.email];
    case "pattern":
      return [q.validation.patternMessage ?? M.pattern];
    case "minLength":
      return [M.minLength, { n }];
    case "maxLength":
      return [M.maxLength, { n }];
    case "minSelected":
      return [M.minCount, { n }];
    case "maxSelected":
      return [M.maxCount, { n }];
    case "min":
      return q.type === "date" ? [M.minDate, { d: day(n) }] : [M.min, { n }];
    case "max":
      return q.type === "date" ? [M.maxDate, { d: day(n) }] : [M.max, { n }];
    case "date":
      return [M.date];
  }
}

function checkValue(
  q: QuestionRecord,
  v: unknown,
  say: (m: LocalizedText, vars?: Record<string, string | number>) => string,
  culture: Culture,
): string | null {
  const wrongType = typeProblem(q, v);
  if (wrongType) return say(...wrongType);
  const issue = validateAnswer(rules(q), v as SurveyAnswer);
  return issue ? say(...issueMessage(q, issue, culture)) : null;
}

/**
 * Validate answers against a survey's dynamic form: unknown question ids, answers to hidden questions, JSON types,
 * required visible questions and every rule. Returns one localized error per failing question (empty when valid),
 * in form order, with pointers `${pointerPrefix}/<questionId>`. Pure, so the shop reuses it for
 * `setCartCustomer.surveyAnswers` (with `pointerPrefix: "/body/surveyAnswers"`).
 * @example validateSurveyAnswers(survey, { qst_x: "other" }, { culture: "en-GB" })
 */
export function validateSurveyAnswers(
  survey: Pick<SurveyRecord, "questions">,
  answers: Record<string, unknown>,
  options: { culture?: Culture; pointerPrefix?: string } = {},
): AnswerError[] {
  const culture = options.culture ?? "de-CH";
  const prefix = options.pointerPrefix ?? "/body/answers";
  const say = (m: LocalizedText, vars: Record<string, string | number> = {}) =>
    fill(pickText(m, culture), vars);
  const pointer = (id: string) => `${prefix}/${id.replace(/~/g, "~0").replace(/\//g, "~1")}`;
  const errors: AnswerError[] = [];
  const known = new Set(survey.questions.map((q) => q.id));
  const visible = visibleQuestions(survey, answers);
  for (const q of survey.questions) {
    const v = answers[q.id] as AnswerValue | undefined;
    const answered = isAnswered(v);
    if (!visible.has(q.id)) {
      if (Object.hasOwn(answers, q.id) && answered)
        errors.push({ pointer: pointer(q.id), detail: say(M.hidden) });
      continue;
    }
    if (!answered) {
      // A wrong JSON type that happens to be "empty" (e.g. null) is still a type error.
      if (
        Object.hasOwn(answers, q.id) &&
        v !== "" &&
        !(Array.isArray(v) && v.length === 0) &&
        typeof v !== "string"
      ) {
        const problem = checkValue(q, v, say, culture);
        if (problem) {
          errors.push({ pointer: pointer(q.id), detail: problem });
          continue;
        }
      }
      if (q.validation.required) errors.push({ pointer: pointer(q.id), detail: say(M.required) });
      continue;
    }
    const problem = checkValue(q, v, say, culture);
    if (problem) errors.push({ pointer: pointer(q.id), detail: problem });
  }
  for (const id of Object.keys(answers)) {
    if (!known.has(id)) errors.push({ pointer: pointer(id), detail: say(M.unknown) });
  }
  return errors;
}

/**
 * Validate one answer map against several surveys at once (a cart with events asking different surveys): each
 * survey sees only its own questions' answers; ids that belong to none are reported once as unknown.
 * @example validateAnswersForSurveys([festival, conference], customer.surveyAnswers ?? {}, { pointerPrefix: "/body/surveyAnswers", culture })
 */
export function validateAnswersForSurveys(
  surveys: Pick<SurveyRecord, "questions">[],
  answers: Record<string, unknown>,
  options: { culture?: Culture; pointerPrefix?: string } = {},
): AnswerError[] {
  const errors: AnswerError[] = [];
  const known = new Set(surveys.flatMap((s) => s.questions.map((q) => q.id)));
  for (const survey of surveys) {
    const own = new Set(survey.questions.map((q) => q.id));
    const subset = Object.fromEntries(Object.entries(answers).filter(([id]) => own.has(id)));
    errors.push(...validateSurveyAnswers(survey, subset, options));
  }
  const unknown = Object.keys(answers).filter((id) => !known.has(id));
  if (unknown.length > 0) {
    const say = pickText(M.unknown, options.culture ?? "de-CH");
    const prefix = options.pointerPrefix ?? "/body/answers";
    for (const id of unknown)
      errors.push({ pointer: `${prefix}/${id.replace(/~/g, "~0").replace(/\//g, "~1")}`, detail: say });
  }
  return errors;
}
