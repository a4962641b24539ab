/**
 * `@entrada/sdk/survey`: the survey rules of the contract as pure functions — which questions a set of answers
 * shows (`visibleIf`, cascading), whether an answer is given, and each question's validation — so every package
 * that renders or checks a survey (the embedded shop, a host's own form, the mock server) applies the same
 * rules instead of a copy. Issues are codes (`{ key: "minLength", count: 3 }`), never text: callers translate.
 */

import type { Question, SurveyAnswer, VisibilityCondition } from "./generated/models.ts";

export type {
  Question,
  QuestionOption,
  QuestionType,
  Survey,
  SurveyAnswer,
  ValidationRules,
  VisibilityCondition,
} from "./generated/models.ts";

/** What a question needs for the rules (any type with these fields: the contract's, or a UI's own). */
export type RuleQuestion = Pick<Question, "id" | "type" | "validation" | "visibleIf">;

/** Why an answer is invalid: a code with its bound (`count`), or a text the survey already localized. */
export interface SurveyIssue {
  key:
    | "required"
    | "email"
    | "minLength"
    | "maxLength"
    | "min"
    | "max"
    | "pattern"
    | "minSelected"
    | "maxSelected"
    | "date";
  count?: number | string;
  /** The survey's own message (`patternMessage`), already in its culture. */
  text?: string;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** An e-mail address as the API accepts it (a local part, `@`, a domain with a dot). */
export function isEmailAddress(value: string): boolean {
  return EMAIL.test(value);
}

/** An empty string or an empty list is no answer (the API's rule). */
export function isAnswered(value: SurveyAnswer | null | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

function holds(condition: VisibilityCondition, answer: SurveyAnswer | undefined): boolean {
  if (condition.operator === "answered") return isAnswered(answer);
  if (!isAnswered(answer)) return condition.operator === "notEquals";
  const list: unknown[] = Array.isArray(answer) ? answer : [answer];
  const value = condition.value;
  switch (condition.operator) {
    case "equals":
      return list.includes(value);
    case "notEquals":
      return !list.includes(value);
    case "in":
      return Array.isArray(value) && list.some((v) => (value as unknown[]).includes(v));
    default:
      return false;
  }
}

/**
 * The questions shown for these answers. Conditions refer to earlier questions; a hidden question's answer
 * counts as absent, so hiding cascades down the form.
 */
export function visibleQuestions<Q extends RuleQuestion>(
  survey: { questions: readonly Q[] },
  answers: Readonly<Record<string, SurveyAnswer>>,
): Q[] {
  const visible = new Set<string>();
  const shown: Q[] = [];
  for (const q of survey.questions) {
    const c = q.visibleIf;
    if (!c || holds(c, visible.has(c.questionId) ? answers[c.questionId] : undefined)) {
      visible.add(q.id);
      shown.push(q);
    }
  }
  return shown;
}

function compiled(source: string, flags: string): RegExp | undefined {
  try {
    return new RegExp(source, flags);
  } catch {
    return undefined;
  }
}

/** The issue of one answer, or `undefined` when it is valid (or absent and optional). */
export function validateAnswer(
  question: RuleQuestion,
  value: SurveyAnswer | undefined,
): SurveyIssue | undefined {
  const r = question.validation;
  if (!isAnswered(value)) return r.required ? { key: "required" } : undefined;
  switch (question.type) {
    case "text":
    case "email": {
      const text = String(value);
      const length = [...text].length;
      if (r.minLength != null && length < r.minLength) return { key: "minLength", count: r.minLength };
      if (r.maxLength != null && length > r.maxLength) return { key: "maxLength", count: r.maxLength };
      if (question.type === "email" && !EMAIL.test(text)) return { key: "email" };
      if (r.pattern != null) {
        const source = `^(?:${r.pattern})$`;
        // Unicode mode first; a pattern only the legacy syntax accepts (`\-`, `[\w-.]`) is still checked, as the
        // server checks it. One that neither accepts cannot be judged: no issue.
        const pattern = compiled(source, "u") ?? compiled(source, "");
        if (pattern && !pattern.test(text))
          return { key: "pattern", ...(r.patternMessage ? { text: r.patternMessage } : {}) };
      }
      return undefined;
    }
    case "number": {
      if (typeof value !== "number" || !Number.isFinite(value)) return { key: "pattern" };
      if (r.min != null && value < r.min) return { key: "min", count: r.min };
      if (r.max != null && value > r.max) return { key: "max", count: r.max };
      return undefined;
    }
    case "multi-choice": {
      const n = Array.isArray(value) ? value.length : 1;
      if (r.min != null && n < r.min) return { key: "minSelected", count: r.min };
      if (r.max != null && n > r.max) return { key: "maxSelected", count: r.max };
      return undefined;
    }
    case "date": {
      const text = String(value);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return { key: "date" };
      if (r.minDate != null && text < r.minDate) return { key: "min", count: r.minDate };
      if (r.maxDate != null && text > r.maxDate) return { key: "max", count: r.maxDate };
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Issues of the visible questions, and the answers to send (hidden or empty answers dropped). */
export function validateSurvey(
  survey: { questions: readonly RuleQuestion[] },
  answers: Readonly<Record<string, SurveyAnswer>>,
): { issues: Record<string, SurveyIssue>; answers: Record<string, SurveyAnswer> } {
  const issues: Record<string, SurveyIssue> = {};
  const kept: Record<string, SurveyAnswer> = {};
  for (const question of visibleQuestions(survey, answers)) {
    const value = answers[question.id];
    const issue = validateAnswer(question, value);
    if (issue) issues[question.id] = issue;
    if (isAnswered(value)) kept[question.id] = value as SurveyAnswer;
  }
  return { issues, answers: kept };
}
