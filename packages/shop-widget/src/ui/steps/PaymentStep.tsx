import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId } from "react";
import { groupCardNumber } from "../../core/checkout-format";
import type { ReturnInfo } from "../../core/resume";
import { useTranslation } from "../../i18n/react";
import { useShop } from "../context";
import { ErrorNotice } from "../parts/ErrorNotice";
import { JourneyError } from "../parts/JourneyError";
import { CheckoutLayout } from "../parts/OrderSummary";
import { StepHeading } from "../parts/StepHeading";
import { usePay, usePaymentReturn } from "../payment-mutations";
import { useCart } from "../queries";
import { keys } from "../query-cache";

/** Step 5: choose a payment provider and pay (card in place, or a redirect to the provider's page). */
export default function PaymentStep() {
  const { journey } = useShop();
  // Back from a payment page: confirm that payment first (a remount per confirmation round).
  return journey.returning ? <ConfirmingPayment info={journey.returning} /> : <PaymentForm />;
}

function ConfirmingPayment({ info }: { info: ReturnInfo }) {
  const { t } = useTranslation("checkout");
  usePaymentReturn(info);
  return (
    <div className="entrada-shop__step">
      <StepHeading>{t("payment.heading")}</StepHeading>
      <p className="entrada-shop__loading" role="status" aria-busy="true">
        {t("payment.confirming")}
      </p>
    </div>
  );
}

function PaymentForm() {
  const { t } = useTranslation("checkout");
  const { journey, money } = useShop();
  const pay = usePay();
  const id = useId();
  const cart = useCart(journey.cartId).data;
  const providers = useProviders(journey.cartId);
  const list = providers.data ?? [];
  const providerId = journey.providerId ?? cart?.paymentProviderId ?? list[0]?.id;
  const provider = list.find((p) => p.id === providerId);
  const { setProvider } = journey;
  useEffect(() => {
    if (journey.providerId === undefined && providerId !== undefined) setProvider(providerId);
  }, [journey.providerId, providerId, setProvider]);

  // While paying, Back and Pay are `aria-disabled`, not `disabled`: the focus stays on Pay (a disabled button drops it
  // to <body>, WCAG 2.4.3) until the confirmation's heading or the decline's message takes it.
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (provider === undefined || pay.paying) return;
    pay.mutate(provider.kind);
  };
  const paying = pay.paying;

  return (
    <form className="entrada-shop__step" onSubmit={submit}>
      <StepHeading>{t("payment.heading")}</StepHeading>
      <CheckoutLayout>
        {providers.error ? (
          <ErrorNotice
            error={providers.error}
            actions={[{ label: t("errors.retry"), onClick: () => void providers.refetch() }]}
          />
        ) : null}
        <fieldset className="entrada-shop__group">
          <legend>{t("payment.provider")}</legend>
          {list.map((p) => (
            <div key={p.id} className="entrada-shop__choice entrada-shop__option">
              <input
                type="radio"
                id={`${id}-provider-${p.id}`}
                name={`${id}-provider`}
                value={p.id}
                checked={providerId === p.id}
                onChange={() => journey.setProvider(p.id)}
              />
              <label htmlFor={`${id}-provider-${p.id}`}>{p.name}</label>
            </div>
          ))}
        </fieldset>
        {provider?.kind === "card" && (
          <div className="entrada-shop__field">
            <label htmlFor={`${id}-card-number`}>{t("payment.card")}</label>
            <input
              id={`${id}-card-number`}
              type="text"
              inputMode="numeric"
              autoComplete="cc-number"
              required
              aria-describedby={`${id}-card-number-hint`}
              value={journey.cardNumber}
              onChange={(e) => {
                const input = e.currentTarget;
                const caret = input.selectionStart ?? input.value.length;
                const digits = input.value.slice(0, caret).replace(/\D/g, "").length;
                const grouped = groupCardNumber(input.value);
                journey.setCardNumber(grouped);
                // Editing inside the number: after the re-render, the caret stays after the same digit.
                if (caret < input.value.length) {
                  queueMicrotask(() => {
                    let seen = 0;
                    let at = 0;
                    while (at < grouped.length && seen < digits)
                      if (/\d/.test(grouped[at++] ?? "")) seen += 1;
                    input.setSelectionRange(at, at);
                  });
                }
              }}
            />
            <p id={`${id}-card-number-hint`} className="entrada-shop__muted">
              {t("payment.cardHint")}
            </p>
          </div>
        )}
        {provider?.kind === "redirect" && <p className="entrada-shop__muted">{t("payment.redirect")}</p>}
        <JourneyError step="payment" />
        <div className="entrada-shop__actions">
          <button
            type="button"
            className="entrada-shop__button"
            aria-disabled={paying}
            onClick={() => {
              if (!paying) journey.goTo("details");
            }}
          >
            {t("payment.back")}
          </button>
          <button
            type="submit"
            className="entrada-shop__button entrada-shop__button--primary"
            aria-disabled={paying || provider === undefined}
            aria-busy={paying || undefined}
          >
            {paying
              ? t("payment.paying")
              : cart
                ? t("payment.pay", { amount: money(cart.total) })
                : t("payment.heading")}
          </button>
        </div>
      </CheckoutLayout>
    </form>
  );
}

function useProviders(cartId: string | undefined) {
  const { api, locale } = useShop();
  return useQuery({
    queryKey: keys.providers(locale, cartId ?? ""),
    queryFn: () => api.listCartPaymentProviders(cartId as string, { locale }),
    enabled: cartId !== undefined,
    placeholderData: keepPreviousData,
  });
}
