import { validateSurvey, visibleQuestions } from "@entrada/sdk/survey";
import { describe, expect, it } from "vitest";
import survey, {
  findSurvey,
  validateAnswersForSurveys,
  validateSurveyAnswers,
} from "../../src/sections/survey/index.ts";
import { fakeShop, harness, pointersOf } from "./context.ts";

const VALID = {
  qst_festSource: "other",
  qst_festSourceOther: "Plakat am Bahnhof",
  qst_festCompanions: 2,
  qst_festInterests: ["classical", "family"],
  qst_festNewsletter: true,
  qst_festEmail: "anna.muster@example.ch",
  qst_festPostcode: "8001",
  qst_festBirthdate: "1990-04-01",
};

describe("survey: forms", () => {
  it("lists seeded surveys, localized, filtered by event (via the shop's surveyId) and status", async () => {
    const h = harness([survey], { slices: fakeShop() });
    const all = (await h.call(survey, "listSurveys", { culture: "it-CH" })).body;
    expect(all.items.map((s) => s.id)).toEqual(["srv_festival", "srv_conference", "srv_feedback2025"]);
    expect(all.items[0]).toMatchObject({
      title: "La vostra visita al festival",
      eventId: "evt_CONCERT",
      questionCount: 8,
    });
    const forEvent = (await h.call(survey, "listSurveys", { query: { eventId: "evt_CONCERT" } })).body;
    expect(forEvent.items.map((s) => s.id)).toEqual(["srv_festival"]);
    const closed = (await h.call(survey, "listSurveys", { query: { status: "closed" } })).body;
    expect(closed.items.map((s) => s.id)).toEqual(["srv_feedback2025"]);
  });

  it("serves the dynamic form in every culture with rules and visibility conditions", async () => {
    const h = harness([survey], { slices: fakeShop() });
    for (const [culture, label] of [
      ["de-CH", "Wie haben Sie vom Festival erfahren?"],
      ["fr-CH", "Comment avez-vous entendu parler du festival ?"],
      ["it-CH", "Come ha saputo del festival?"],
      ["en-GB", "How did you hear about the festival?"],
    ] as const) {
      const s = (await h.call(survey, "getSurvey", { params: { surveyId: "srv_festival" }, culture })).body;
      expect(s.questions[0]?.label).toBe(label);
    }
    const s = (await h.call(survey, "getSurvey", { params: { surveyId: "srv_festival" }, culture: "en-GB" }))
      .body;
    expect(s.questions[1]).toMatchObject({
      id: "qst_festSourceOther",
      type: "text",
      options: null,
      validation: { required: true, maxLength: 200 },
      visibleIf: { questionId: "qst_festSource", operator: "equals", value: "other" },
    });
    expect(s.questions[6]).toMatchObject({
      validation: { pattern: "\\d{4}", patternMessage: "Please enter a four-digit Swiss postcode." },
    });
    expect((await h.problem(survey, "getSurvey", { params: { surveyId: "srv_nope" } })).slug).toBe(
      "not-found",
    );
  });
});

describe("survey: validateSurveyAnswers", () => {
  const h = harness([survey]);
  const festival = findSurvey(h.world, "srv_festival");
  const conference = findSurvey(h.world, "srv_conference");
  if (!festival || !conference) throw new Error("seed surveys missing");
  const errors = (answers: Record<string, unknown>, culture: "de-CH" | "en-GB" = "en-GB") =>
    validateSurveyAnswers(festival, answers, { culture }).map((e) => [e.pointer.split("/").pop(), e.detail]);

  it("accepts a complete valid response", () => {
    expect(errors(VALID)).toEqual([]);
  });

  it("requires visible required questions and evaluates conditions on the submitted answers", () => {
    expect(errors({})).toEqual([
      ["qst_festSource", "Please answer this question."],
      ["qst_festNewsletter", "Please answer this question."],
    ]);
    // "other" reveals the follow-up question, which is required; newsletter=true reveals the e-mail question.
    expect(errors({ qst_festSource: "other", qst_festSourceOther: "  ", qst_festNewsletter: true })).toEqual([
      ["qst_festSourceOther", "Please answer this question."],
      ["qst_festEmail", "Please answer this question."],
    ]);
    // Answering a hidden question is an error; an empty answer to it is fine.
    expect(
      errors({
        qst_festSource: "friends",
        qst_festSourceOther: "x",
        qst_festNewsletter: false,
        qst_festEmail: "",
      }),
    ).toEqual([
      ["qst_festSourceOther", "This question is hidden given the other answers and must not be answered."],
    ]);
  });

  it("checks JSON types, options and every rule, one error per question, in form order", () => {
    expect(
      errors({
        ...VALID,
        qst_festSource: "radio",
        qst_festCompanions: 11,
        qst_festInterests: ["jazz", "pop", "classical", "family"],
        qst_festEmail: "not-an-email",
        qst_festPostcode: "80011",
        qst_festBirthdate: "1899-12-31",
        qst_unknown: 1,
      }),
    ).toEqual([
      ["qst_festSource", "“radio” is not an option of this question."],
      // qst_festSourceOther is hidden now (source is not "other") but answered.
      ["qst_festSourceOther", "This question is hidden given the other answers and must not be answered."],
      ["qst_festCompanions", "The value must be at most 10."],
      ["qst_festInterests", "Please choose at most 3 options."],
      ["qst_festEmail", "Please enter a valid e-mail address."],
      ["qst_festPostcode", "Please enter a four-digit Swiss postcode."],
      ["qst_festBirthdate", "The date must not be before 1 January 1900."],
      ["qst_unknown", "The survey has no such question."],
    ]);
    expect(
      errors({
        ...VALID,
        qst_festCompanions: "2",
        qst_festNewsletter: "yes",
        qst_festInterests: "jazz",
        qst_festBirthdate: "1990-02-30",
      }),
    ).toEqual([
      ["qst_festCompanions", "A number is expected."],
      ["qst_festInterests", "A list of option values is expected."],
      ["qst_festNewsletter", "true or false is expected."],
      // "yes" is not `true`, so the e-mail question is hidden, yet answered.
      ["qst_festEmail", "This question is hidden given the other answers and must not be answered."],
      ["qst_festBirthdate", "A date in the form YYYY-MM-DD is expected."],
    ]);
    expect(errors({ ...VALID, qst_festInterests: ["jazz", "jazz"] })).toEqual([
      ["qst_festInterests", "The option “jazz” is selected twice."],
    ]);
    expect(errors({ ...VALID, qst_festNewsletter: null, qst_festEmail: "" }, "de-CH")).toEqual([
      ["qst_festNewsletter", "Erwartet wird true oder false."],
    ]);
  });

  it("supports `in` conditions and a custom pointer prefix for the shop's customer answers", () => {
    const base = { qst_confCompany: "Muster AG", qst_confDiet: "none" };
    expect(
      validateSurveyAnswers(conference, { ...base, qst_confRole: "management", qst_confWorkshops: ["api"] }),
    ).toEqual([
      { pointer: "/body/answers/qst_confWorkshops", detail: expect.stringContaining("ausgeblendet") },
    ]);
    expect(
      validateSurveyAnswers(conference, { ...base, qst_confRole: "developer", qst_confWorkshops: ["api"] }),
    ).toEqual([]);
    expect(
      validateSurveyAnswers(
        conference,
        { qst_confCompany: "M" },
        { pointerPrefix: "/body/surveyAnswers", culture: "fr-CH" },
      ),
    ).toEqual([
      {
        pointer: "/body/surveyAnswers/qst_confCompany",
        detail: "Le texte doit comporter au moins 2 caractères.",
      },
      { pointer: "/body/surveyAnswers/qst_confRole", detail: "Veuillez répondre à cette question." },
      { pointer: "/body/surveyAnswers/qst_confDiet", detail: "Veuillez répondre à cette question." },
    ]);
  });
});

describe("survey: one set of rules with the embedded shop (@entrada/sdk/survey)", () => {
  it("flags exactly the questions the widget's validateSurvey flags, for well-typed answers", () => {
    const h = harness([survey]);
    const festival = findSurvey(h.world, "srv_festival");
    if (!festival) throw new Error("seed survey missing");
    // Each case breaks one rule (or none) of a valid response; the server may add type checks, never disagree.
    const cases: Record<string, unknown>[] = [
      {},
      { qst_festSource: "social" },
      { qst_festSource: "other" },
      { qst_festSourceOther: "" },
      { qst_festCompanions: -1 },
      { qst_festCompanions: 99 },
      { qst_festInterests: [] },
      { qst_festInterests: ["classical", "family", "jazz", "pop", "rock", "folk"] },
      { qst_festEmail: "anna@" },
      { qst_festPostcode: "80a1" },
      { qst_festBirthdate: "1800-01-01" },
      { qst_festBirthdate: "2999-01-01" },
      { qst_festNewsletter: false },
    ];
    const questions = festival.questions.map((q) => ({
      id: q.id,
      type: q.type,
      visibleIf: q.visibleIf,
      validation: { ...q.validation, patternMessage: undefined },
    }));
    let flagged = 0;
    for (const change of cases) {
      const answers = { ...VALID, ...change } as Record<string, string | number | boolean | string[]>;
      const shown = new Set(visibleQuestions({ questions }, answers).map((q) => q.id));
      // The server also refuses answers to hidden questions, which the widget drops instead of sending.
      const server = validateSurveyAnswers(festival, answers, { culture: "en-GB" })
        .map((e) => e.pointer.split("/").pop() as string)
        .filter((id) => shown.has(id));
      const widget = Object.keys(validateSurvey({ questions }, answers).issues);
      expect(server, JSON.stringify(change)).toEqual(widget);
      if (widget.length > 0) flagged += 1;
    }
    // Not vacuous: most cases break one of the seeded survey's rules.
    expect(flagged).toBeGreaterThanOrEqual(8);
  });
});

describe("survey: patterns in the legacy RegExp syntax", () => {
  it("still checks a pattern that only parses without the Unicode flag (as the widget does)", () => {
    const h = harness([survey]);
    const festival = findSurvey(h.world, "srv_festival");
    if (!festival) throw new Error("seed survey missing");
    // `\-` is an error under the `u` flag and a literal hyphen without it.
    const withLegacy = {
      ...festival,
      questions: festival.questions.map((q) =>
        q.id === "qst_festPostcode"
          ? { ...q, validation: { ...q.validation, pattern: "\\d{2}\\-\\d{2}" } }
          : q,
      ),
    };
    const flagged = (postcode: string) =>
      validateSurveyAnswers(withLegacy, { ...VALID, qst_festPostcode: postcode }, { culture: "en-GB" }).map(
        (e) => e.pointer,
      );
    expect(flagged("80-01")).toEqual([]);
    expect(flagged("8001")).toEqual([expect.stringMatching(/qst_festPostcode$/)]);
  });
});

describe("survey: answers for several surveys (the shop's cart customer)", () => {
  it("validates each survey against its own answers and reports foreign ids once", () => {
    const h = harness([survey]);
    const festival = findSurvey(h.world, "srv_festival");
    const conference = findSurvey(h.world, "srv_conference");
    if (!festival || !conference) throw new Error("seed surveys missing");
    const errors = validateAnswersForSurveys(
      [festival, conference],
      {
        qst_festSource: "social",
        qst_festNewsletter: false,
        qst_confCompany: "Muster AG",
        qst_confRole: "other",
        qst_nope: 1,
      },
      { culture: "en-GB", pointerPrefix: "/body/surveyAnswers" },
    );
    expect(errors).toEqual([
      { pointer: "/body/surveyAnswers/qst_confDiet", detail: "Please answer this question." },
      { pointer: "/body/surveyAnswers/qst_nope", detail: "The survey has no such question." },
    ]);
  });
});

describe("survey: responses", () => {
  it("stores valid responses and lists them newest first; rejects invalid ones with 422 and stores nothing", async () => {
    const h = harness([survey], { slices: fakeShop() });
    const bad = await h.problem(survey, "submitSurveyResponse", {
      params: { surveyId: "srv_festival" },
      body: { answers: { qst_festSource: "other" }, orderId: "ord_NOPE" },
      culture: "en-GB",
    });
    expect(bad.slug).toBe("unprocessable");
    expect(bad.detail).toBe("3 answers break the survey's rules.");
    expect(pointersOf(bad)).toEqual([
      "/body/answers/qst_festSourceOther",
      "/body/answers/qst_festNewsletter",
      "/body/orderId",
    ]);
    const empty = (await h.call(survey, "listSurveyResponses", { params: { surveyId: "srv_festival" } }))
      .body;
    expect(empty.items).toEqual([]);

    const first = await h.call(survey, "submitSurveyResponse", {
      params: { surveyId: "srv_festival" },
      body: { answers: VALID, orderId: "ord_ONE", ticketId: "tkt_A" },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      surveyId: "srv_festival",
      answers: VALID,
      orderId: "ord_ONE",
      ticketId: "tkt_A",
    });
    h.clock.advance(60_000);
    await h.call(survey, "submitSurveyResponse", {
      params: { surveyId: "srv_festival" },
      body: { answers: { qst_festSource: "social", qst_festNewsletter: false } },
    });
    const list = (await h.call(survey, "listSurveyResponses", { params: { surveyId: "srv_festival" } })).body;
    expect(list.items.map((r) => r.orderId)).toEqual([null, "ord_ONE"]);
    const recent = (
      await h.call(survey, "listSurveyResponses", {
        params: { surveyId: "srv_festival" },
        query: { submittedFrom: new Date(h.clock.now()).toISOString() },
      })
    ).body;
    expect(recent.items).toHaveLength(1);
  });

  it("rejects responses to a closed survey with 409", async () => {
    const h = harness([survey]);
    const p = await h.problem(survey, "submitSurveyResponse", {
      params: { surveyId: "srv_feedback2025" },
      body: { answers: { qst_fb25Rating: 5 } },
    });
    expect(p.slug).toBe("conflict");
  });
});

describe("survey: bounded by design", () => {
  it("keeps the latest maxResponses responses of each survey, the oldest going first", async () => {
    const h = harness([survey], { slices: fakeShop(), seed: { survey: { maxResponses: 2 } } });
    for (const source of ["social", "friends", "newspaper"]) {
      h.clock.advance(1000);
      const sent = await h.call(survey, "submitSurveyResponse", {
        params: { surveyId: "srv_festival" },
        body: { answers: { qst_festSource: source, qst_festNewsletter: false } },
      });
      expect(sent.status).toBe(201);
    }
    const list = (await h.call(survey, "listSurveyResponses", { params: { surveyId: "srv_festival" } })).body;
    expect(list.items.map((r) => r.answers.qst_festSource)).toEqual(["newspaper", "friends"]);
    expect(survey.retained?.(h.world.survey)).toBe(2);
  });
});
