import { isEmailAddress, type SurveyIssue } from "@entrada/sdk/survey";

// The survey rules (visibility, answers, validation) are the SDK's, shared with every other package.
export { isAnswered, validateAnswer, validateSurvey, visibleQuestions } from "@entrada/sdk/survey";

/**
 * A validation message: a key under `validation.` with its number, or a text the server or survey already
 * localized (`patternMessage`, a problem's field `detail`).
 */
export type Issue = SurveyIssue;

export interface CustomerFields {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
}

/** The contract's limits on `Customer` (packages/openapi/src/components/shop.yaml). */
const MAX_LENGTH: Record<keyof CustomerFields, number> = {
  firstName: 100,
  lastName: 100,
  email: 254,
  phone: 32,
  company: 200,
};

export function validateCustomer(c: CustomerFields): Partial<Record<keyof CustomerFields, Issue>> {
  const issues: Partial<Record<keyof CustomerFields, Issue>> = {};
  if (c.firstName.trim() === "") issues.firstName = { key: "required" };
  if (c.lastName.trim() === "") issues.lastName = { key: "required" };
  if (c.email.trim() === "") issues.email = { key: "required" };
  else if (!isEmailAddress(c.email.trim())) issues.email = { key: "email" };
  if (c.phone.trim() !== "" && !/^\+?[0-9 ()./-]{6,}$/.test(c.phone.trim()))
    issues.phone = { key: "pattern" };
  for (const [name, max] of Object.entries(MAX_LENGTH) as Array<[keyof CustomerFields, number]>) {
    if (issues[name] === undefined && c[name].trim().length > max)
      issues[name] = { key: "maxLength", count: max };
  }
  return issues;
}
