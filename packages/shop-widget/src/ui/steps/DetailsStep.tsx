import { isErrorKind } from "@entrada/sdk/shop";
import { useQueries } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import type { Survey } from "../../core/survey";
import { type CustomerFields, type Issue, validateCustomer, validateSurvey } from "../../core/validate";
import { useTranslation } from "../../i18n/react";
import { useSaveDetails } from "../cart-mutations";
import { useShop } from "../context";
import { useLineEvents } from "../parts/event-info";
import { JourneyError } from "../parts/JourneyError";
import { CheckoutLayout } from "../parts/OrderSummary";
import { StepHeading } from "../parts/StepHeading";
import { useCart } from "../queries";
import { keys } from "../query-cache";
import { SurveyFields } from "./SurveyFields";

const FIELDS: Array<{ name: keyof CustomerFields; type: string; autoComplete: string; optional?: boolean }> =
  [
    { name: "firstName", type: "text", autoComplete: "given-name" },
    { name: "lastName", type: "text", autoComplete: "family-name" },
    { name: "email", type: "email", autoComplete: "email" },
    { name: "phone", type: "tel", autoComplete: "tel", optional: true },
    { name: "company", type: "text", autoComplete: "organization", optional: true },
  ];

/** Step 4: the buyer's details, plus the dynamic survey form of every event in the cart that has one. */
export default function DetailsStep() {
  const { t } = useTranslation("checkout");
  const { journey, api, locale } = useShop();
  const saving = useSaveDetails();
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [issues, setIssues] = useState<Record<string, Issue>>({});
  const [submitted, setSubmitted] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // After a failed submit, move focus to the first field that needs attention.
  useEffect(() => {
    if (attempt > 0) form.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [attempt]);
  const cart = useCart(journey.cartId).data;
  const events = useLineEvents((cart?.items ?? []).map((i) => i.eventId)).queries;
  const surveyIds = [...new Set(events.map((q) => q.data?.surveyId).filter((s): s is string => !!s))];
  const surveys = useQueries({
    queries: surveyIds.map((surveyId) => ({
      queryKey: keys.survey(locale, surveyId),
      queryFn: () => api.getSurvey(surveyId, { locale }),
    })),
  })
    .map((q) => q.data)
    .filter((s): s is Survey => s !== undefined);

  // Server-side validation errors point into the request body (`/body/email`, `/body/surveyAnswers/q1`).
  const serverIssues: Record<string, Issue> = {};
  const failed = journey.error?.step === "details" ? journey.error.error : undefined;
  if (isErrorKind(failed, "problem")) {
    for (const fe of failed.errors) {
      const field = fe.pointer.replace(/^\/body\/(surveyAnswers\/)?/, "");
      serverIssues[field] = { key: "pattern", text: fe.detail };
    }
  }
  const all = { ...serverIssues, ...issues };

  const validate = () => {
    const found: Record<string, Issue> = { ...validateCustomer(journey.customer) };
    let answers = journey.answers;
    for (const survey of surveys) {
      const result = validateSurvey(survey, answers);
      Object.assign(found, result.issues);
      answers = { ...answers, ...result.answers };
    }
    return { found, answers };
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Busy: `aria-disabled`, not `disabled`, which would drop the focus to <body> (WCAG 2.4.3).
    if (saving.isPending) return;
    setSubmitted(true);
    const { found } = validate();
    setIssues(found);
    if (Object.keys(found).length > 0) {
      setAttempt((n) => n + 1);
      return;
    }
    const kept: Record<string, unknown> = {};
    for (const survey of surveys) Object.assign(kept, validateSurvey(survey, journey.answers).answers);
    journey.setAnswers(kept as typeof journey.answers);
    saving.save(kept as typeof journey.answers);
  };

  const update = (name: keyof CustomerFields, value: string) => {
    journey.setCustomer({ ...journey.customer, [name]: value });
    if (submitted) {
      const next = { ...issues };
      const issue = validateCustomer({ ...journey.customer, [name]: value })[name];
      if (issue) next[name] = issue;
      else delete next[name];
      setIssues(next);
    }
  };

  const count = Object.keys(issues).length;
  return (
    <form ref={form} className="entrada-shop__step" onSubmit={submit} noValidate>
      <StepHeading>{t("details.heading")}</StepHeading>
      <CheckoutLayout>
        {submitted && count > 0 && (
          <p className="entrada-shop__error" role="alert">
            {t("validation.summary", { count })}
          </p>
        )}
        <div className="entrada-shop__grid">
          {FIELDS.map((field) => {
            const inputId = `${id}-${field.name}`;
            const locked = journey.locked.includes(field.name);
            // A locked field is the host's: its value cannot be wrong here (a refusal is explained above).
            const issue = locked ? undefined : all[field.name];
            const described = [issue ? `${inputId}-error` : "", locked ? `${inputId}-locked` : ""]
              .join(" ")
              .trim();
            return (
              <div key={field.name} className="entrada-shop__field">
                <label htmlFor={inputId}>
                  {t(`details.${field.name}`)}
                  {field.optional ? ` ${t("details.optional")}` : ""}
                </label>
                <input
                  id={inputId}
                  name={field.name}
                  type={field.type}
                  autoComplete={field.autoComplete}
                  required={!field.optional}
                  readOnly={locked}
                  aria-invalid={issue ? true : undefined}
                  aria-describedby={described === "" ? undefined : described}
                  value={journey.customer[field.name]}
                  onChange={(e) => update(field.name, e.currentTarget.value)}
                />
                {locked && (
                  <p id={`${inputId}-locked`} className="entrada-shop__muted entrada-shop__locked">
                    {t("details.locked")}
                  </p>
                )}
                {issue && (
                  <p id={`${inputId}-error`} className="entrada-shop__field-error">
                    {issue.text ?? t(`validation.${issue.key}`, { count: issue.count })}
                  </p>
                )}
              </div>
            );
          })}
        </div>
        {surveys.map((survey) => (
          <SurveyFields
            key={survey.id}
            survey={survey}
            answers={journey.answers}
            issues={all}
            onChange={(answers) => {
              journey.setAnswers(answers);
              if (submitted) {
                const next = { ...issues };
                for (const q of survey.questions) delete next[q.id];
                Object.assign(next, validateSurvey(survey, answers).issues);
                setIssues(next);
              }
            }}
          />
        ))}
        <JourneyError step="details" />
        <div className="entrada-shop__actions">
          <button type="button" className="entrada-shop__button" onClick={() => journey.goTo("cart")}>
            {t("details.back")}
          </button>
          <button
            type="submit"
            className="entrada-shop__button entrada-shop__button--primary"
            aria-disabled={saving.isPending}
          >
            {saving.isPending ? t("details.saving") : t("details.next")}
          </button>
        </div>
      </CheckoutLayout>
    </form>
  );
}
