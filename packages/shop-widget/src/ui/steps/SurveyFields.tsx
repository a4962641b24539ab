import { useId } from "react";
import type { Question, Survey, SurveyAnswer } from "../../core/survey";
import { type Issue, visibleQuestions } from "../../core/validate";
import { useTranslation } from "../../i18n/react";

export interface SurveyFieldsProps {
  survey: Survey;
  answers: Record<string, SurveyAnswer>;
  issues: Record<string, Issue>;
  onChange(answers: Record<string, SurveyAnswer>): void;
}

/** A survey as a form: one labelled control per visible question; conditional questions appear in place. */
export function SurveyFields({ survey, answers, issues, onChange }: SurveyFieldsProps) {
  const { t } = useTranslation("checkout");
  const id = useId();
  const set = (question: Question, value: SurveyAnswer | undefined) => {
    const next = { ...answers };
    if (value === undefined || value === "") delete next[question.id];
    else next[question.id] = value;
    onChange(next);
  };

  return (
    <fieldset className="entrada-shop__survey">
      <legend>{survey.title || t("details.survey")}</legend>
      {survey.description ? <p className="entrada-shop__muted">{survey.description}</p> : null}
      {visibleQuestions(survey, answers).map((q) => {
        const inputId = `${id}-${q.id}`;
        const issue = issues[q.id];
        const describedBy = [q.help ? `${inputId}-help` : "", issue ? `${inputId}-error` : ""]
          .filter(Boolean)
          .join(" ");
        const common = {
          "aria-invalid": issue ? true : undefined,
          "aria-describedby": describedBy || undefined,
        } as const;
        const value = answers[q.id];
        const label = `${q.label}${q.validation.required ? "" : ` ${t("details.optional")}`}`;
        let control: React.ReactNode;
        switch (q.type) {
          case "boolean":
          case "single-choice":
          case "multi-choice": {
            const options =
              q.type === "boolean"
                ? [
                    { value: "true", label: t("survey.yes") },
                    { value: "false", label: t("survey.no") },
                  ]
                : (q.options ?? []);
            const multiple = q.type === "multi-choice";
            const selected = Array.isArray(value) ? value : value === undefined ? [] : [String(value)];
            control = (
              <fieldset className="entrada-shop__choices" {...common}>
                <legend>{label}</legend>
                {options.map((option) => (
                  <div key={option.value} className="entrada-shop__choice">
                    <input
                      type={multiple ? "checkbox" : "radio"}
                      id={`${inputId}-option-${option.value}`}
                      name={inputId}
                      value={option.value}
                      checked={selected.includes(option.value)}
                      onChange={(e) => {
                        if (q.type === "boolean") return set(q, option.value === "true");
                        if (!multiple) return set(q, option.value);
                        const next = e.currentTarget.checked
                          ? [...selected, option.value]
                          : selected.filter((v) => v !== option.value);
                        set(q, next.length === 0 ? undefined : next);
                      }}
                    />
                    <label htmlFor={`${inputId}-option-${option.value}`}>{option.label}</label>
                  </div>
                ))}
              </fieldset>
            );
            break;
          }
          default:
            control = (
              <>
                <label htmlFor={inputId}>{label}</label>
                <input
                  id={inputId}
                  type={
                    q.type === "number"
                      ? "number"
                      : q.type === "date"
                        ? "date"
                        : q.type === "email"
                          ? "email"
                          : "text"
                  }
                  {...common}
                  placeholder={q.placeholder ?? undefined}
                  value={value === undefined ? "" : String(value)}
                  onChange={(e) => {
                    const raw = e.currentTarget.value;
                    set(q, q.type === "number" && raw !== "" ? Number(raw) : raw);
                  }}
                />
              </>
            );
        }
        return (
          <div key={q.id} className="entrada-shop__field">
            {control}
            {q.help ? (
              <p id={`${inputId}-help`} className="entrada-shop__muted">
                {q.help}
              </p>
            ) : null}
            {issue ? (
              <p id={`${inputId}-error`} className="entrada-shop__field-error">
                {issue.text ?? t(`validation.${issue.key}`, { count: issue.count })}
              </p>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}
