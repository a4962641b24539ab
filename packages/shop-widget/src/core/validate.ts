import type { Question, Survey, SurveyAnswer, VisibilityCondition } from "./survey";

/**
 * A validation message: a key under `validation.` with its number, or a text the server or survey already
 * localized (`patternMessage`, a problem's field `detail`).
 */
export interface Issue {
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
  text?: string;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

export interface CustomerFields {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
}

export function validateCustomer(c: CustomerFields): Partial<Record<keyof CustomerFields, Issue>> {
  const issues: Partial<Record<keyof CustomerFields, Issue>> = {};
  if (c.firstName.trim() === "") issues.firstName = { key: "required" };
  if (c.lastName.trim() === "") issues.lastName = { key: "required" };
  if (c.email.trim() === "") issues.email = { key: "required" };
  else if (!EMAIL.test(c.email.trim())) issues.email = { key: "email" };
  if (c.phone.trim() !== "" && !/^\+?[0-9 ()./-]{6,}$/.test(c.phone.trim()))
    issues.phone = { key: "pattern" };
  return issues;
}

/** An empty string or an empty list is no answer (same rule as the server). */
export function isAnswered(value: SurveyAnswer | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

function holds(condition: VisibilityCondition, answer: SurveyAnswer | undefined): boolean {
  if (condition.operator === "answered") return isAnswered(answer);
  if (!isAnswered(answer)) return condition.operator === "notEquals";
  const list = Array.isArray(answer) ? answer : [answer as string | number | boolean];
  const value = condition.value;
  switch (condition.operator) {
    case "equals":
      return list.includes(value as never);
    case "notEquals":
      return !list.includes(value as never);
    case "in":
      return Array.isArray(value) && list.some((v) => value.includes(v));
  }
}

/**
 * The questions shown for these answers. Conditions refer to earlier questions; a hidden question's answer
 * counts as absent, so hiding cascades down the form.
 */
export function visibleQuestions(
  survey: Pick<Survey, "questions">,
  answers: Record<string, SurveyAnswer>,
): Question[] {
  const visible = new Set<string>();
  const shown: Question[] = [];
  for (const q of survey.questions) {
    const c = q.visibleIf;
    if (c === null || holds(c, visible.has(c.questionId) ? answers[c.questionId] : undefined)) {
      visible.add(q.id);
      shown.push(q);
    }
  }
  return shown;
}

export function validateAnswer(question: Question, value: SurveyAnswer | undefined): Issue | undefined {
  const r = question.validation;
  if (!isAnswered(value)) return r.required ? { key: "required" } : undefined;
  switch (question.type) {
    case "text":
    case "email": {
      const text = String(value);
      const length = [...text].length;
      if (r.minLength !== undefined && length < r.minLength) return { key: "minLength", count: r.minLength };
      if (r.maxLength !== undefined && length > r.maxLength) return { key: "maxLength", count: r.maxLength };
      if (question.type === "email" && !EMAIL.test(text)) return { key: "email" };
      if (r.pattern !== undefined) {
        let ok = true;
        try {
          ok = new RegExp(`^(?:${r.pattern})$`, "u").test(text);
        } catch {
          ok = true; // an invalid pattern is the server's to judge
        }
        if (!ok) return { key: "pattern", ...(r.patternMessage ? { text: r.patternMessage } : {}) };
      }
      return undefined;
    }
    case "number": {
      if (typeof value !== "number" || !Number.isFinite(value)) return { key: "pattern" };
      if (r.min !== undefined && value < r.min) return { key: "min", count: r.min };
      if (r.max !== undefined && value > r.max) return { key: "max", count: r.max };
      return undefined;
    }
    case "multi-choice": {
      const n = Array.isArray(value) ? value.length : 1;
      if (r.min !== undefined && n < r.min) return { key: "minSelected", count: r.min };
      if (r.max !== undefined && n > r.max) return { key: "maxSelected", count: r.max };
      return undefined;
    }
    case "date": {
      const text = String(value);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return { key: "date" };
      if (r.minDate !== undefined && text < r.minDate) return { key: "min", count: r.minDate };
      if (r.maxDate !== undefined && text > r.maxDate) return { key: "max", count: r.maxDate };
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Issues of the visible questions, and the answers to send (hidden or empty answers dropped). */
export function validateSurvey(
  survey: Pick<Survey, "questions">,
  answers: Record<string, SurveyAnswer>,
): { issues: Record<string, Issue>; answers: Record<string, SurveyAnswer> } {
  const issues: Record<string, Issue> = {};
  const kept: Record<string, SurveyAnswer> = {};
  for (const question of visibleQuestions(survey, answers)) {
    const value = answers[question.id];
    const issue = validateAnswer(question, value);
    if (issue) issues[question.id] = issue;
    if (isAnswered(value)) kept[question.id] = value as SurveyAnswer;
  }
  return { issues, answers: kept };
}
