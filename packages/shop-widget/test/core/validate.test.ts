import { describe, expect, it } from "vitest";
import type { Question, Survey } from "../../src/core/survey";
import { validateAnswer, validateCustomer, validateSurvey, visibleQuestions } from "../../src/core/validate";

const q = (id: string, type: Question["type"], extra: Partial<Question> = {}): Question => ({
  id,
  type,
  label: id,
  help: null,
  placeholder: null,
  options: null,
  validation: { required: false },
  visibleIf: null,
  ...extra,
});

const survey: Pick<Survey, "questions"> = {
  questions: [
    q("qst_source", "single-choice", {
      options: [
        { value: "social", label: "Social" },
        { value: "other", label: "Other" },
      ],
      validation: { required: true },
    }),
    q("qst_other", "text", {
      validation: { required: true, minLength: 3 },
      visibleIf: { questionId: "qst_source", operator: "equals", value: "other" },
    }),
    q("qst_detail", "text", {
      validation: { required: true },
      visibleIf: { questionId: "qst_other", operator: "answered" },
    }),
    q("qst_age", "number", { validation: { required: false, min: 16, max: 120 } }),
    q("qst_topics", "multi-choice", { validation: { required: false, min: 1, max: 2 } }),
    q("qst_code", "text", {
      validation: { required: false, pattern: "[A-Z]{3}", patternMessage: "Three capitals" },
    }),
  ],
};

describe("survey form", () => {
  it("shows conditional questions only when their condition holds, cascading", () => {
    const ids = (answers: Record<string, never | string>) =>
      visibleQuestions(survey, answers).map((x) => x.id);
    expect(ids({})).toEqual(["qst_source", "qst_age", "qst_topics", "qst_code"]);
    expect(ids({ qst_source: "other" })).toContain("qst_other");
    expect(ids({ qst_source: "other", qst_other: "Radio" })).toContain("qst_detail");
    // Hiding the parent hides the child even though its own condition's answer is still there.
    expect(ids({ qst_source: "social", qst_other: "Radio" })).not.toContain("qst_detail");
  });

  it("validates the visible questions and drops hidden answers", () => {
    const result = validateSurvey(survey, { qst_source: "social", qst_other: "left over", qst_age: 12 });
    expect(result.issues).toEqual({ qst_age: { key: "min", count: 16 } });
    expect(result.answers).toEqual({ qst_source: "social", qst_age: 12 });
    expect(validateSurvey(survey, {}).issues).toEqual({ qst_source: { key: "required" } });
    expect(validateSurvey(survey, { qst_source: "other", qst_other: "ab" }).issues).toEqual({
      qst_other: { key: "minLength", count: 3 },
      // "ab" is an answer, so the question that depends on it is shown and required.
      qst_detail: { key: "required" },
    });
  });

  it("applies the type's rules", () => {
    const [, , , age, topics, code] = survey.questions as [
      Question,
      Question,
      Question,
      Question,
      Question,
      Question,
    ];
    expect(validateAnswer(age, 121)).toEqual({ key: "max", count: 120 });
    expect(validateAnswer(topics, ["a", "b", "c"])).toEqual({ key: "maxSelected", count: 2 });
    expect(validateAnswer(code, "abc")).toEqual({ key: "pattern", text: "Three capitals" });
    expect(validateAnswer(code, "ABC")).toBeUndefined();
  });

  it("checks patterns that only the legacy (non-Unicode) RegExp syntax accepts, as the server does", () => {
    // `\-` is an error under the `u` flag and a literal hyphen without it.
    const pattern = "\\d{3}\\-\\d{2}";
    expect(() => new RegExp(pattern, "u")).toThrow();
    const legacy = q("qst_ref", "text", { validation: { required: false, pattern } });
    expect(validateAnswer(legacy, "123-45")).toBeUndefined();
    expect(validateAnswer(legacy, "12345")).toEqual({ key: "pattern" });
    // A pattern no syntax accepts cannot be judged here.
    const broken = q("qst_bad", "text", { validation: { required: false, pattern: "(" } });
    expect(validateAnswer(broken, "anything")).toBeUndefined();
  });

  it("checks the buyer's fields", () => {
    expect(validateCustomer({ firstName: " ", lastName: "B", email: "x@", phone: "", company: "" })).toEqual({
      firstName: { key: "required" },
      email: { key: "email" },
    });
    expect(
      validateCustomer({
        firstName: "A",
        lastName: "B",
        email: "a@b.ch",
        phone: "+41 44 123 45 67",
        company: "",
      }),
    ).toEqual({});
  });
});

describe("validateCustomer", () => {
  const ok = { firstName: "Anna", lastName: "Muster", email: "anna@example.ch", phone: "", company: "" };
  it("keeps to the contract's lengths (what the API would refuse is said before sending)", () => {
    expect(validateCustomer(ok)).toEqual({});
    expect(validateCustomer({ ...ok, firstName: "A".repeat(100) })).toEqual({});
    expect(validateCustomer({ ...ok, firstName: "A".repeat(101), company: "C".repeat(201) })).toEqual({
      firstName: { key: "maxLength", count: 100 },
      company: { key: "maxLength", count: 200 },
    });
    expect(validateCustomer({ ...ok, email: "x@y" })).toEqual({ email: { key: "email" } });
  });
});
