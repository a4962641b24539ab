import { pickText, t } from "../../core/culture.ts";
import type { Culture, LocalizedText } from "../../core/types.ts";
import type { AnswerValue, QuestionRecord, SurveyRecord, VisibilityConditionRecord } from "./model.ts";

export interface AnswerError {
  pointer: string;
  detail: string;
}

const M = {
  unknown: t(
    "Diese Frage gibt es in der Umfrage nicht.",
    "Cette question n'existe pas dans l'enquête.",
    "Questa domanda non esiste nel sondaggio.",
    "The survey has no such question.",
  ),
  hidden: t(
    "Diese Frage ist bei den übrigen Antworten ausgeblendet und darf nicht beantwortet werden.",
    "Cette question est masquée compte tenu des autres réponses et ne doit pas recevoir de réponse.",
    "Questa domanda è nascosta in base alle altre risposte e non deve avere risposta.",
    "This question is hidden given the other answers and must not be answered.",
  ),
  required: t(
    "Bitte beantworten Sie diese Frage.",
    "Veuillez répondre à cette question.",
    "Rispondere a questa domanda.",
    "Please answer this question.",
  ),
  string: t("Erwartet wird ein Text.", "Un texte est attendu.", "È atteso un testo.", "A text is expected."),
  number: t(
    "Erwartet wird eine Zahl.",
    "Un nombre est attendu.",
    "È atteso un numero.",
    "A number is expected.",
  ),
  boolean: t(
    "Erwartet wird true oder false.",
    "true ou false est attendu.",
    "È atteso true o false.",
    "true or false is expected.",
  ),
  array: t(
    "Erwartet wird eine Liste von Optionswerten.",
    "Une liste de valeurs d'options est attendue.",
    "È attesa una lista di valori di opzione.",
    "A list of option values is expected.",
  ),
  option: t(
    "«{value}» ist keine Option dieser Frage.",
    "« {value} » n'est pas une option de cette question.",
    "«{value}» non è un'opzione di questa domanda.",
    "“{value}” is not an option of this question.",
  ),
  duplicateOption: t(
    "Die Option «{value}» ist doppelt gewählt.",
    "L'option « {value} » est choisie deux fois.",
    "L'opzione «{value}» è scelta due volte.",
    "The option “{value}” is selected twice.",
  ),
  email: t(
    "Bitte geben Sie eine gültige E-Mail-Adresse ein.",
    "Veuillez saisir une adresse e-mail valide.",
    "Inserire un indirizzo e-mail valido.",
    "Please enter a valid e-mail address.",
  ),
  date: t(
    "Erwartet wird ein Datum im Format JJJJ-MM-TT.",
    "Une date au format AAAA-MM-JJ est attendue.",
    "È attesa una data nel formato AAAA-MM-GG.",
    "A date in the form YYYY-MM-DD is expected.",
  ),
  min: t(
    "Der Wert muss mindestens {n} sein.",
    "La valeur doit être au moins {n}.",
    "Il valore deve essere almeno {n}.",
    "The value must be at least {n}.",
  ),
  max: t(
    "Der Wert darf höchstens {n} sein.",
    "La valeur doit être au plus {n}.",
    "Il valore deve essere al massimo {n}.",
    "The value must be at most {n}.",
  ),
  minCount: t(
    "Bitte wählen Sie mindestens {n} Optionen.",
    "Veuillez choisir au moins {n} options.",
    "Scegliere almeno {n} opzioni.",
    "Please choose at least {n} options.",
  ),
  maxCount: t(
    "Bitte wählen Sie höchstens {n} Optionen.",
    "Veuillez choisir au plus {n} options.",
    "Scegliere al massimo {n} opzioni.",
    "Please choose at most {n} options.",
  ),
  minLength: t(
    "Der Text muss mindestens {n} Zeichen lang sein.",
    "Le texte doit comporter au moins {n} caractères.",
    "Il testo deve contenere almeno {n} caratteri.",
    "The text must be at least {n} characters long.",
  ),
  maxLength: t(
    "Der Text darf höchstens {n} Zeichen lang sein.",
    "Le texte doit comporter au plus {n} caractères.",
    "Il testo deve contenere al massimo {n} caratteri.",
    "The text must be at most {n} characters long.",
  ),
  pattern: t(
    "Die Eingabe hat nicht das erwartete Format.",
    "La saisie n'a pas le format attendu.",
    "L'input non ha il formato atteso.",
    "The input does not have the expected format.",
  ),
  minDate: t(
    "Das Datum darf nicht vor dem {d} liegen.",
    "La date ne doit pas être antérieure au {d}.",
    "La data non deve essere anteriore al {d}.",
    "The date must not be before {d}.",
  ),
  maxDate: t(
    "Das Datum darf nicht nach dem {d} liegen.",
    "La date ne doit pas être postérieure au {d}.",
    "La data non deve essere successiva al {d}.",
    "The date must not be after {d}.",
  ),
} satisfies Record<string, LocalizedText>;

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** An empty string or an empty list is no answer. */
export function isAnswered(v: AnswerValue | undefined): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === "string") return v.trim() !== "";
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

function conditionHolds(c: VisibilityConditionRecord, answer: AnswerValue | undefined): boolean {
  if (c.operator === "answered") return isAnswered(answer);
  if (!isAnswered(answer)) return c.operator === "notEquals";
  const list = Array.isArray(answer)
    ? (answer as (string | number | boolean)[])
    : [answer as string | number | boolean];
  switch (c.operator) {
    case "equals":
      return list.includes(c.value as string | number | boolean);
    case "notEquals":
      return !list.includes(c.value as string | number | boolean);
    case "in":
      return (
        Array.isArray(c.value) && list.some((v) => (c.value as (string | number | boolean)[]).includes(v))
      );
  }
}

/**
 * Which questions are visible for these answers. Conditions refer to earlier questions; the answer of a hidden
 * question counts as absent, so hiding cascades down the form.
 */
export function visibleQuestions(
  survey: Pick<SurveyRecord, "questions">,
  answers: Record<string, unknown>,
): Set<string> {
  const visible = new Set<string>();
  for (const q of survey.questions) {
    const c = q.visibleIf;
    const shown =
      c === null ||
      conditionHolds(c, visible.has(c.questionId) ? (answers[c.questionId] as AnswerValue) : undefined);
    if (shown) visible.add(q.id);
  }
  return visible;
}

function fill(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ""));
}

function checkValue(
  q: QuestionRecord,
  v: unknown,
  say: (m: LocalizedText, vars?: Record<string, string | number>) => string,
  culture: Culture,
): string | null {
  const r = q.validation;
  switch (q.type) {
    case "text":
    case "email": {
      if (typeof v !== "string") return say(M.string);
      const length = [...v].length;
      if (r.minLength !== undefined && length < r.minLength) return say(M.minLength, { n: r.minLength });
      if (r.maxLength !== undefined && length > r.maxLength) return say(M.maxLength, { n: r.maxLength });
      if (q.type === "email" && !EMAIL.test(v)) return say(M.email);
      if (r.pattern !== undefined) {
        let ok = false;
        try {
          ok = new RegExp(`^(?:${r.pattern})$`, "u").test(v);
        } catch {
          ok = new RegExp(`^(?:${r.pattern})$`).test(v);
        }
        if (!ok) return r.patternMessage ? pickText(r.patternMessage, culture) : say(M.pattern);
      }
      return null;
    }
    case "number": {
      if (typeof v !== "number" || !Number.isFinite(v)) return say(M.number);
      if (r.min !== undefined && v < r.min) return say(M.min, { n: r.min });
      if (r.max !== undefined && v > r.max) return say(M.max, { n: r.max });
      return null;
    }
    case "boolean":
      return typeof v === "boolean" ? null : say(M.boolean);
    case "single-choice": {
      if (typeof v !== "string") return say(M.string);
      return q.options?.some((o) => o.value === v) ? null : say(M.option, { value: v });
    }
    case "multi-choice": {
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) return say(M.array);
      const seen = new Set<string>();
      for (const x of v as string[]) {
        if (!q.options?.some((o) => o.value === x)) return say(M.option, { value: x });
        if (seen.has(x)) return say(M.duplicateOption, { value: x });
        seen.add(x);
      }
      if (r.min !== undefined && v.length < r.min) return say(M.minCount, { n: r.min });
      if (r.max !== undefined && v.length > r.max) return say(M.maxCount, { n: r.max });
      return null;
    }
    case "date": {
      if (typeof v !== "string" || !isDate(v)) return say(M.date);
      const fmt = (d: string) =>
        new Intl.DateTimeFormat(culture, { dateStyle: "long", timeZone: "UTC" }).format(
          Date.parse(`${d}T00:00:00Z`),
        );
      if (r.minDate !== undefined && v < r.minDate) return say(M.minDate, { d: fmt(r.minDate) });
      if (r.maxDate !== undefined && v > r.maxDate) return say(M.maxDate, { d: fmt(r.maxDate) });
      return null;
    }
  }
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
