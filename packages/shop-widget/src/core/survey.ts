import type { SurveyAnswer } from "./types";

export type { SurveyAnswer };

/** A survey's dynamic form as the survey section of the contract returns it (`GET /survey/v1/surveys/{id}`). */
export type QuestionType =
  | "text"
  | "email"
  | "number"
  | "single-choice"
  | "multi-choice"
  | "boolean"
  | "date";

export interface QuestionOption {
  value: string;
  label: string;
}

export interface VisibilityCondition {
  questionId: string;
  operator: "equals" | "notEquals" | "in" | "answered";
  value?: string | number | boolean | Array<string | number | boolean>;
}

export interface ValidationRules {
  required: boolean;
  /** Smallest number (`number`) or fewest selected options (`multi-choice`). */
  min?: number;
  /** Largest number (`number`) or most selected options (`multi-choice`). */
  max?: number;
  minLength?: number;
  maxLength?: number;
  /** ECMAScript regular expression the whole text must match. */
  pattern?: string;
  /** Localized message for a failed `pattern`. */
  patternMessage?: string;
  minDate?: string;
  maxDate?: string;
}

export interface Question {
  id: string;
  type: QuestionType;
  label: string;
  help: string | null;
  placeholder: string | null;
  options: QuestionOption[] | null;
  validation: ValidationRules;
  visibleIf: VisibilityCondition | null;
}

export interface Survey {
  id: string;
  eventId: string | null;
  title: string;
  description: string | null;
  status: "active" | "closed";
  questions: Question[];
}
