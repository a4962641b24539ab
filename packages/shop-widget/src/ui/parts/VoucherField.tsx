import { isProblem } from "@entrada/sdk/shop";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useLayoutEffect, useRef, useState } from "react";
import { errorText } from "../../core/error-text";
import type { Cart } from "../../core/types";
import { uuid } from "../../core/uuid";
import { useTranslation } from "../../i18n/react";
import { useShop } from "../context";
import { putCart } from "../query-cache";
import { regainFocus } from "./focus";

/** The contract's `VoucherCode`: checked before sending, so a malformed code never reaches the API. */
const CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The text key for a refused code: a malformed code, the reason by problem slug, or what else failed. */
function reason(error: unknown): string {
  if (isProblem(error, "validation-error") && error.errors.some((e) => e.pointer === "/body/code"))
    return "voucher.malformed";
  return `errors.${errorText(error)}`;
}

/**
 * The cart's voucher code: a field to apply one, or the applied code with a button to remove it. Both writes are
 * TanStack Query mutations that put the answered cart into the cache; a refused or malformed code leaves the cart
 * as it was and says why, translated. The same code sent again (a double submit, a retry) reuses its
 * `Idempotency-Key`, so the API answers it once.
 *
 * The focus is never lost (WCAG 2.4.3): applying a code replaces the field and its button with the applied code, so
 * the focus moves to "Remove code"; removing it brings the field back, which takes the focus. A refused code keeps
 * the focus where it was (the field or "Apply", still there), the message tied to the field and announced. The
 * buttons are `aria-disabled` while a write is on its way rather than `disabled`, which would drop the focus.
 */
export function VoucherField({ cart }: { cart: Cart }) {
  const { t } = useTranslation("checkout");
  const { api, locale, money, announce, controller } = useShop();
  const id = useId();
  const [code, setCode] = useState("");
  const [message, setMessage] = useState<string | undefined>();
  const attempt = useRef<{ code: string; key: string } | undefined>(undefined);
  // A second submit before React re-renders sees a stale `isPending`: the ref stops it in the same tick.
  const sending = useRef(false);
  const keyFor = (value: string) => {
    if (attempt.current?.code !== value) attempt.current = { code: value, key: uuid() };
    return attempt.current.key;
  };
  const store = (next: Cart) => putCart(controller.queryClient, locale, next);
  const field = useRef<HTMLInputElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  // Where the focus goes once the render a write caused is on screen, if that render took it away.
  const focusNext = useRef<"field" | "remove" | "message" | undefined>(undefined);
  useLayoutEffect(() => {
    const wanted = focusNext.current;
    if (wanted === undefined) return;
    const target = { field, remove: removeButton, message: messageRef }[wanted].current;
    if (target === null) return;
    focusNext.current = undefined;
    regainFocus(target);
  });

  const apply = useMutation({
    mutationFn: (value: string) =>
      api.applyCartVoucher(cart.id, value, { locale, idempotencyKey: keyFor(value) }),
    onSuccess: (next) => {
      attempt.current = undefined;
      focusNext.current = "remove";
      store(next);
      setCode("");
      setMessage(undefined);
      const line = next.discounts[0];
      if (line)
        announce(
          t("voucher.applied", { code: line.code, amount: money(line.amount), total: money(next.total) }),
        );
    },
    onError: (error) => {
      focusNext.current = "message";
      setMessage(reason(error));
    },
    onSettled: () => {
      sending.current = false;
    },
  });
  const remove = useMutation({
    mutationFn: () => api.removeCartVoucher(cart.id, { locale }),
    onSuccess: (next, _, context) => {
      focusNext.current = "field";
      store(next);
      setMessage(undefined);
      announce(t("voucher.removed", { code: context, total: money(next.total) }));
    },
    onMutate: () => cart.discounts[0]?.code ?? "",
    onError: (error) => {
      focusNext.current = "message";
      setMessage(reason(error));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current || remove.isPending) return;
    const value = code.trim();
    if (value === "") return setMessage("voucher.empty");
    if (!CODE.test(value)) return setMessage("voucher.malformed");
    sending.current = true;
    apply.mutate(value);
  };

  const applied = cart.discounts[0];
  const inputId = `${id}-voucher`;
  const messageId = `${id}-voucher-message`;
  const busy = apply.isPending || remove.isPending;
  const text = message === undefined ? undefined : t(message, { ns: ["checkout", "core"] });
  if (applied) {
    return (
      <div className="entrada-shop__voucher">
        <p className="entrada-shop__voucher-applied">
          <span>{t("voucher.discount", { code: applied.code })}</span> · <span>{applied.name}</span>
        </p>
        <button
          ref={removeButton}
          type="button"
          className="entrada-shop__button entrada-shop__button--quiet"
          aria-label={t("voucher.remove", { code: applied.code })}
          aria-disabled={busy || undefined}
          onClick={() => {
            if (!busy) remove.mutate();
          }}
        >
          {t("voucher.removeShort")}
        </button>
        {text && (
          <p ref={messageRef} className="entrada-shop__field-error" role="alert" tabIndex={-1}>
            {text}
          </p>
        )}
      </div>
    );
  }
  return (
    <form className="entrada-shop__voucher" onSubmit={submit} noValidate>
      <div className="entrada-shop__field">
        <label htmlFor={inputId}>{t("voucher.label")}</label>
        <input
          ref={field}
          id={inputId}
          name="voucher"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={text ? true : undefined}
          aria-describedby={text ? messageId : undefined}
          value={code}
          onChange={(e) => {
            setCode(e.currentTarget.value);
            if (message) setMessage(undefined);
          }}
        />
      </div>
      <button type="submit" className="entrada-shop__button" aria-disabled={busy || undefined}>
        {apply.isPending ? t("voucher.applying") : t("voucher.apply")}
      </button>
      {text && (
        <p id={messageId} ref={messageRef} className="entrada-shop__field-error" role="alert" tabIndex={-1}>
          {text}
        </p>
      )}
    </form>
  );
}
