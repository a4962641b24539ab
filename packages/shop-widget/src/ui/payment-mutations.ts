import { isErrorKind, isProblem } from "@entrada/sdk/shop";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { readGa4Ids } from "../core/analytics-ga4-ids";
import type { ErrorText } from "../core/error-text";
import { moneyValue } from "../core/format";
import type { ReturnInfo } from "../core/resume";
import { buildReturnUrl, claimOnce, clearResume, readResume, saveResume } from "../core/resume-store";
import type { Order } from "../core/types";
import { uuid } from "../core/uuid";
import { useShop } from "./context";
import { CHECKOUT_KEY } from "./controller";
import { cartAnalyticsItems, currentCart, finish, setCartId, track } from "./journey-effects";
import type { JourneyContext } from "./journey-state";
import { keys, putCart, refreshCart } from "./query-cache";

/** Payment status checks after a return from a payment page: at most this many, `paymentPollIntervalMs` apart. */
export const PAYMENT_CHECKS = 10;

type PayOutcome = { order: Order } | { redirected: boolean };

async function checkout(ctx: JourneyContext, kind: "card" | "redirect"): Promise<PayOutcome> {
  const { cartId, providerId, cardNumber } = ctx.state.current;
  const { controller, locale } = ctx.deps();
  const api = controller.api;
  if (cartId === undefined || providerId === undefined) return { redirected: false };
  // Only with the host's measurement id (analytics consent); bounded, never fails the payment.
  const visitor = readGa4Ids(controller.config.analytics?.measurementId);
  let cart = currentCart(ctx);
  if (cart?.paymentProviderId !== providerId) {
    cart = await api.setCartPaymentProvider(cartId, providerId, { locale });
    putCart(controller.queryClient, ctx.deps().locale, cart);
  }
  track(ctx, "add_payment_info", {
    currency: cart.total.currency,
    value: moneyValue(cart.total),
    payment_type: providerId,
    items: cartAnalyticsItems(cart.items),
  });
  const config = controller.config;
  const analytics = await visitor;
  // A retry after a network failure reuses the key only for the same body (the ids included).
  const fingerprint = `${cartId}|${providerId}|${kind === "card" ? cardNumber : ""}|${analytics?.ga4ClientId}|${analytics?.ga4SessionId}`;
  if (ctx.checkoutKey.current?.fingerprint !== fingerprint) {
    ctx.checkoutKey.current = { key: uuid(), fingerprint };
  }
  const result = await api.checkoutCart(
    cartId,
    {
      ...(kind === "card"
        ? { paymentMethod: { cardNumber: cardNumber.replace(/\s+/g, "") } }
        : { returnUrl: buildReturnUrl(config.returnUrl ?? globalThis.location.href, controller.instanceId) }),
      ...(analytics ? { analytics } : {}),
    },
    { locale, idempotencyKey: ctx.checkoutKey.current.key },
  );
  if (result.status === "completed") return { order: result.order };
  // Leaving the page: only references go to sessionStorage, never personal data.
  saveResume(controller.instanceId, { cartId, paymentId: result.paymentId });
  const proceed = await config.beforeRedirect?.({
    url: result.redirectUrl,
    cartId,
    paymentId: result.paymentId,
  });
  // Unmounted meanwhile (a misuse the console was told about): the host's page stays.
  if (proceed === false || controller.disposed) return { redirected: false };
  (config.navigate ?? ((url: string) => globalThis.location.assign(url)))(result.redirectUrl);
  return { redirected: true };
}

/**
 * Pays the cart: the card in place (then the order), or off to the provider's page. `paying` stays true while
 * the page is being left.
 */
export function usePay() {
  const ctx = useShop().journey.context;
  const mutation = useMutation({
    mutationKey: CHECKOUT_KEY,
    scope: { id: "entrada-cart" },
    mutationFn: (kind: "card" | "redirect") => checkout(ctx, kind),
    onSuccess: (outcome) => {
      if ("order" in outcome) finish(ctx, outcome.order);
    },
    onError: (error, kind) => {
      // Without an answer the checkout may have happened: a retry sends the same key, so it happens once.
      if (!isErrorKind(error, "network") && !isErrorKind(error, "timeout"))
        ctx.checkoutKey.current = undefined;
      // A declined payment unlocks the cart; refresh it so its status and totals are current.
      const cartId = ctx.state.current.cartId;
      const { controller, locale } = ctx.deps();
      if (isProblem(error, "payment-declined") && cartId !== undefined)
        refreshCart(controller.queryClient, locale, cartId);
      ctx.fail(error, "payment", () => mutation.mutate(kind));
    },
  });
  const redirected = mutation.data !== undefined && "redirected" in mutation.data && mutation.data.redirected;
  return { ...mutation, paying: mutation.isPending || redirected };
}

/**
 * Back from a payment page: the payment's status as a query that checks again every `paymentPollIntervalMs`
 * while it is pending (at most {@link PAYMENT_CHECKS} times; "Check again" starts a new round), then the order.
 * The order is fetched once per page for every mount of this instance (StrictMode, a double mount), and the
 * purchase completes once ({@link finish}). Rendered while `journey.returning` is set; any outcome but the order
 * ends it and shows the payment step with the error.
 */
export function usePaymentReturn(info: ReturnInfo) {
  const { journey, controller, locale, api } = useShop();
  const ctx = journey.context;
  const interval = controller.config.paymentPollIntervalMs ?? 1000;
  const paymentKey = keys.payment(locale, info.paymentId);
  const payment = useQuery({
    queryKey: paymentKey,
    queryFn: () => api.getPayment(info.paymentId, { locale }),
    refetchInterval: (query) =>
      query.state.data?.status === "pending" && query.state.dataUpdateCount < PAYMENT_CHECKS
        ? interval
        : false,
    refetchIntervalInBackground: true,
    staleTime: Number.POSITIVE_INFINITY,
    meta: { shownInPlace: true },
  });
  const data = payment.data;
  // Reading the check's time re-renders on every check (the answer itself is the same object while pending).
  const checks =
    payment.dataUpdatedAt === 0
      ? 0
      : (controller.queryClient.getQueryState(paymentKey)?.dataUpdateCount ?? 0);
  const settled = data !== undefined && (data.status !== "pending" || checks >= PAYMENT_CHECKS);
  const orderId = data?.status === "succeeded" ? data.orderId : undefined;
  const order = useQuery({
    queryKey: keys.order(locale, orderId ?? ""),
    queryFn: () =>
      claimOnce(`${controller.instanceId}:${orderId}:order`, () =>
        api.getOrder(orderId as string, { locale }),
      ),
    enabled: orderId !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    meta: { shownInPlace: true },
  });

  // The cart from the record left before the redirect (its summary shows at once), then the payment's own.
  useEffect(() => {
    const record = readResume(controller.instanceId);
    if (record?.paymentId === info.paymentId) setCartId(ctx, record.cartId);
  }, [ctx, controller, info]);
  useEffect(() => {
    if (data !== undefined) setCartId(ctx, data.cartId);
  }, [ctx, data]);
  useEffect(() => {
    if (order.data !== undefined) finish(ctx, order.data);
  }, [ctx, order.data]);

  // Every other outcome: back to the payment form with the error, or with what became of the payment (not an
  // error of a call: the host is not told); "Check again" / "Try again" confirms anew.
  const error = payment.error ?? order.error;
  const incomplete: ErrorText | undefined =
    error === null && settled && orderId === undefined
      ? data.status === "pending"
        ? "payment-pending"
        : data.status === "cancelled"
          ? "payment-cancelled"
          : "payment-failed"
      : undefined;
  const cartId = data?.cartId;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per outcome, not per render.
  useEffect(() => {
    if (error === null && incomplete === undefined) return;
    const { queryClient } = controller;
    if (cartId !== undefined) {
      if (incomplete === "payment-cancelled" || incomplete === "payment-failed")
        clearResume(controller.instanceId);
      refreshCart(queryClient, locale, cartId);
    }
    ctx.setState(({ returning: _done, ...s }) => s);
    const again = () => {
      queryClient.removeQueries({ queryKey: paymentKey, exact: true });
      ctx.setState(({ error: _e, ...s }) => ({ ...s, returning: info }));
    };
    if (error !== null) ctx.fail(error, "payment", again);
    else if (incomplete !== undefined)
      ctx.tell(incomplete, "payment", { retry: incomplete === "payment-pending" ? again : undefined });
  }, [error, incomplete]);
}
