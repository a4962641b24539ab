/**
 * A survey's dynamic form as the survey section of the contract returns it (`GET /survey/v1/surveys/{id}`): the
 * contract's generated types, through the SDK (never a hand-written copy).
 */
export type {
  Question,
  QuestionOption,
  QuestionType,
  Survey,
  SurveyAnswer,
  ValidationRules,
  VisibilityCondition,
} from "@entrada/sdk/survey";
