import type { LocalizedText } from "../../core/types.ts";

export type QuestionType =
  | "text"
  | "email"
  | "number"
  | "single-choice"
  | "multi-choice"
  | "boolean"
  | "date";

export type AnswerValue = string | number | boolean | string[];

export interface QuestionOptionRecord {
  value: string;
  label: LocalizedText;
}

export interface ValidationRulesRecord {
  required: boolean;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  patternMessage?: LocalizedText;
  minDate?: string;
  maxDate?: string;
}

export interface VisibilityConditionRecord {
  questionId: string;
  operator: "equals" | "notEquals" | "in" | "answered";
  value?: string | number | boolean | (string | number | boolean)[];
}

export interface QuestionRecord {
  id: string;
  type: QuestionType;
  label: LocalizedText;
  help: LocalizedText | null;
  placeholder: LocalizedText | null;
  options: QuestionOptionRecord[] | null;
  validation: ValidationRulesRecord;
  visibleIf: VisibilityConditionRecord | null;
}

export interface SurveyRecord {
  id: string;
  /** Explicit event; when null, the first shop event whose `surveyId` names this survey is reported. */
  eventId: string | null;
  title: LocalizedText;
  description: LocalizedText | null;
  status: "active" | "closed";
  questions: QuestionRecord[];
  createdAt: string;
  updatedAt: string;
}

export interface SurveyResponseRecord {
  id: string;
  surveyId: string;
  answers: Record<string, AnswerValue>;
  orderId: string | null;
  ticketId: string | null;
  submittedAt: string;
}

export interface SurveyState {
  surveys: Record<string, SurveyRecord>;
  /** Survey ids in display order. */
  surveyOrder: string[];
  /** Responses per survey, in submission order (the latest `maxResponses` of each). */
  responses: Record<string, SurveyResponseRecord[]>;
  /** Most responses kept per survey (seed `survey.maxResponses`); the oldest go first. Optional for old snapshots. */
  maxResponses?: number;
}

export const DEFAULT_MAX_RESPONSES = 10_000;

export const SURVEY = "survey";
