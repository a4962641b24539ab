import { useCallback, useMemo, useRef, useState } from "react";
import type { Locale, Step } from "../config";
import { type AnalyticsItem, moneyValue } from "../core/analytics";
import { ShopError, toShopError } from "../core/problem";
import {
  buildReturnUrl,
  claimOnce,
  clearResume,
  readResume,
  type ReturnInfo,
  saveResume,
} from "../core/resume";
import type { SurveyAnswer } from "../core/survey";
import type { Cart, CartItem, EventDetail, EventFilters, Money, Order, Payment } from "../core/types";
import type { Controller } from "./controller";
import { keys } from "./queries";

export interface CustomerDraft {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
}

export interface Selection {
  slotId?: string;
  quantities: Record<string, number>;
}

export interface JourneyError {
  error: ShopError;
  /** The step the error is shown on. */
  step: Step;
  /** Runs the failed action again (same idempotency key where it matters). */
  retry?: () => void;
}

export type Busy = "adding" | "updating" | "saving" | "paying" | "confirming" | undefined;

export interface JourneyState {
  step: Step;
  filters: EventFilters;
  eventId?: string;
  cartId?: string;
  selections: Record<string, Selection>;
  customer: CustomerDraft;
  answers: Record<string, SurveyAnswer>;
  providerId?: string;
  cardNumber: string;
  order?: Order;
  error?: JourneyError;
  busy: Busy;
  /** Bumped on every navigation the buyer caused: the new step's heading takes focus. */
  navigation: number;
}

const EMPTY_CUSTOMER: CustomerDraft = { firstName: "", lastName: "", email: "", phone: "", company: "" };

export function initialState(filters: EventFilters = {}): JourneyState {
  return {
    step: "events",
    filters,
    selections: {},
    customer: EMPTY_CUSTOMER,
    answers: {},
    cardNumber: "",
    busy: undefined,
    navigation: 0,
  };
}

export function cartAnalyticsItems(items: CartItem[]): AnalyticsItem[] {
  return items.map((item) => ({
    item_id: item.articleId,
    item_name: item.name,
    item_variant: item.slotId,
    price: moneyValue(item.unitPrice),
    quantity: item.quantity,
  }));
}

function sum(items: AnalyticsItem[]): number {
  return Math.round(items.reduce((total, i) => total + (i.price ?? 0) * (i.quantity ?? 1), 0) * 100) / 100;
}

export interface JourneyActions {
  goTo(step: Step): void;
  setFilters(filters: EventFilters): void;
  openEvent(eventId: string): void;
  setSelection(eventId: string, selection: Selection): void;
  addToCart(event: EventDetail, selection: Selection): Promise<void>;
  changeQuantity(item: CartItem, quantity: number): Promise<void>;
  removeItem(item: CartItem): Promise<void>;
  setCustomer(customer: CustomerDraft): void;
  setAnswers(answers: Record<string, SurveyAnswer>): void;
  saveDetails(): Promise<boolean>;
  setProvider(providerId: string): void;
  setCardNumber(cardNumber: string): void;
  pay(providerKind: "card" | "redirect"): Promise<void>;
  confirmReturn(info: ReturnInfo, isLive: () => boolean): Promise<void>;
  rebook(): Promise<void>;
  restart(): void;
  dismissError(): void;
  fail(error: unknown, step: Step, retry?: () => void): void;
}

export type Journey = JourneyState & JourneyActions;

interface Deps {
  controller: Controller;
  locale: Locale;
  announce(text: string): void;
  texts: {
    added(total: string): string;
    changed(name: string, count: number, total: string): string;
    removed(name: string, total: string): string;
  };
  money(money: Money): string;
}

/** The purchase journey: buyer-entered state (kept across language switches and errors) and its actions. */
export function useJourney(deps: Deps): Journey {
  const [state, setState] = useState<JourneyState>(() => initialState(deps.controller.config.filters));
  const depsRef = useRef(deps);
  depsRef.current = deps;
  const stateRef = useRef(state);
  stateRef.current = state;
  /** One key per cart creation, so a retried or doubled create yields the same cart. */
  const cartKey = useRef<string | undefined>(undefined);
  /** The checkout key is reused only when the same attempt is retried after a network failure. */
  const checkoutKey = useRef<{ key: string; fingerprint: string } | undefined>(undefined);

  const patch = useCallback((p: Partial<JourneyState>) => setState((s) => ({ ...s, ...p })), []);

  const actions = useMemo<JourneyActions>(() => {
    const d = () => depsRef.current;
    const call = () => ({ locale: d().locale });
    const api = () => d().controller.api;
    const qc = () => d().controller.queryClient;
    const track = (...args: Parameters<Controller["tracker"]["track"]>) => d().controller.tracker.track(...args);

    const storeCart = (cart: Cart) => {
      const { locale } = d();
      qc().removeQueries({
        predicate: (q) => q.queryKey[2] === "cart" && q.queryKey[3] === cart.id && q.queryKey[1] !== locale,
      });
      qc().setQueryData(keys.cart(locale, cart.id), cart);
    };
    const currentCart = (): Cart | undefined => {
      const id = stateRef.current.cartId;
      return id === undefined ? undefined : qc().getQueryData<Cart>(keys.cart(d().locale, id));
    };

    const fail = (error: unknown, step: Step, retry?: () => void) => {
      const e = toShopError(error);
      setState((s) => ({ ...s, busy: undefined, error: { error: e, step, ...(retry ? { retry } : {}) } }));
      d().controller.notify("error", e);
    };

    const goTo = (step: Step, extra: Partial<JourneyState> = {}) => {
      setState((s) => {
        const { error: _dropped, ...rest } = s;
        return { ...rest, ...extra, step, busy: undefined, navigation: s.navigation + 1 };
      });
    };

    const ensureCart = async (fresh = false): Promise<string> => {
      const existing = stateRef.current.cartId;
      if (existing !== undefined && !fresh) return existing;
      cartKey.current ??= globalThis.crypto.randomUUID();
      const cart = await api().createCart({}, { ...call(), idempotencyKey: cartKey.current });
      storeCart(cart);
      stateRef.current = { ...stateRef.current, cartId: cart.id };
      patch({ cartId: cart.id });
      return cart.id;
    };

    const finish = (order: Order) => {
      const { controller } = d();
      clearResume(controller.instanceId);
      cartKey.current = undefined;
      checkoutKey.current = undefined;
      const first = !controller.completed.has(order.id);
      if (first) {
        const items = cartAnalyticsItems(order.items);
        track("purchase", {
          transaction_id: order.id,
          currency: order.total.currency,
          value: moneyValue(order.total),
          items,
        });
        controller.completed.add(order.id);
        controller.notify("checkoutcomplete", order);
      }
      const { cartId: _c, ...rest } = stateRef.current;
      stateRef.current = { ...rest, step: "confirmation", order };
      setState((s) => {
        const { cartId: _cart, error: _error, ...others } = s;
        return { ...others, order, step: "confirmation", busy: undefined, navigation: s.navigation + 1 };
      });
      controller.notify("cartchange", null);
    };

    const addLines = async (cartId: string, lines: Array<{ articleId: string; slotId: string; quantity: number }>) => {
      let cart: Cart | undefined;
      for (const line of lines) cart = await api().addCartItem(cartId, line, call());
      return cart;
    };

    const actions: JourneyActions = {
      goTo: (step) => {
        goTo(step);
        const cart = currentCart();
        if (step === "cart" && cart) {
          track("view_cart", {
            currency: cart.total.currency,
            value: moneyValue(cart.total),
            items: cartAnalyticsItems(cart.items),
          });
        }
        if (step === "details" && cart) {
          track("begin_checkout", {
            currency: cart.total.currency,
            value: moneyValue(cart.total),
            items: cartAnalyticsItems(cart.items),
          });
        }
      },
      setFilters: (filters) => patch({ filters }),
      openEvent: (eventId) => goTo("event", { eventId }),
      setSelection: (eventId, selection) =>
        setState((s) => ({ ...s, selections: { ...s.selections, [eventId]: selection } })),
      dismissError: () =>
        setState((s) => {
          const { error: _e, ...rest } = s;
          return rest;
        }),
      fail,

      async addToCart(event, selection) {
        const slotId = selection.slotId;
        if (slotId === undefined) return;
        const lines = Object.entries(selection.quantities)
          .filter(([, quantity]) => quantity > 0)
          .map(([articleId, quantity]) => ({ articleId, slotId, quantity }));
        if (lines.length === 0) return;
        patch({ busy: "adding" });
        try {
          let cartId = await ensureCart();
          let cart: Cart | undefined;
          try {
            cart = await addLines(cartId, lines);
          } catch (error) {
            const e = toShopError(error);
            // The previous cart is gone (expired, paid or locked): start a new one and add again.
            if (e.kind !== "hold-expired" && e.kind !== "cart-locked" && e.kind !== "not-found") throw e;
            cartKey.current = undefined;
            cartId = await ensureCart(true);
            cart = await addLines(cartId, lines);
          }
          if (cart === undefined) return;
          storeCart(cart);
          const articles = new Map(event.pricingAssortments.flatMap((a) => a.articles).map((a) => [a.id, a]));
          const items: AnalyticsItem[] = lines.map((line) => {
            const article = articles.get(line.articleId);
            return {
              item_id: line.articleId,
              item_name: article ? `${event.name} – ${article.name}` : line.articleId,
              item_category: event.name,
              item_variant: line.slotId,
              ...(article ? { price: moneyValue(article.price) } : {}),
              quantity: line.quantity,
            };
          });
          track("add_to_cart", { currency: cart.currency, value: sum(items), items });
          d().announce(d().texts.added(d().money(cart.total)));
          setState((s) => ({ ...s, selections: { ...s.selections, [event.id]: { quantities: {} } } }));
          actions.goTo("cart");
        } catch (error) {
          fail(error, "event", () => void actions.addToCart(event, selection));
        }
      },

      async changeQuantity(item, quantity) {
        const cartId = stateRef.current.cartId;
        if (cartId === undefined || quantity === item.quantity) return;
        if (quantity < 1) return actions.removeItem(item);
        patch({ busy: "updating" });
        try {
          const cart = await api().updateCartItem(cartId, item.id, quantity, call());
          storeCart(cart);
          patch({ busy: undefined });
          const delta = quantity - item.quantity;
          track(delta > 0 ? "add_to_cart" : "remove_from_cart", {
            currency: cart.currency,
            value: Math.abs(delta) * moneyValue(item.unitPrice),
            items: [{ ...cartAnalyticsItems([item])[0]!, quantity: Math.abs(delta) }],
          });
          d().announce(d().texts.changed(item.name, quantity, d().money(cart.total)));
        } catch (error) {
          fail(error, "cart", () => void actions.changeQuantity(item, quantity));
        }
      },

      async removeItem(item) {
        const cartId = stateRef.current.cartId;
        if (cartId === undefined) return;
        patch({ busy: "updating" });
        try {
          const cart = await api().removeCartItem(cartId, item.id, call());
          storeCart(cart);
          patch({ busy: undefined });
          track("remove_from_cart", {
            currency: cart.currency,
            value: moneyValue(item.lineTotal),
            items: cartAnalyticsItems([item]),
          });
          d().announce(d().texts.removed(item.name, d().money(cart.total)));
        } catch (error) {
          fail(error, "cart", () => void actions.removeItem(item));
        }
      },

      setCustomer: (customer) => patch({ customer }),
      setAnswers: (answers) => patch({ answers }),
      setProvider: (providerId) => patch({ providerId }),
      setCardNumber: (cardNumber) => patch({ cardNumber }),

      async saveDetails() {
        const { cartId, customer, answers } = stateRef.current;
        if (cartId === undefined) return false;
        patch({ busy: "saving" });
        try {
          const cart = await api().setCartCustomer(
            cartId,
            {
              firstName: customer.firstName.trim(),
              lastName: customer.lastName.trim(),
              email: customer.email.trim(),
              ...(customer.phone.trim() ? { phone: customer.phone.trim() } : {}),
              ...(customer.company.trim() ? { company: customer.company.trim() } : {}),
              ...(Object.keys(answers).length > 0 ? { surveyAnswers: answers } : {}),
            },
            call(),
          );
          storeCart(cart);
          goTo("payment");
          return true;
        } catch (error) {
          fail(error, "details", () => void actions.saveDetails());
          return false;
        }
      },

      async pay(kind) {
        const { cartId, providerId, cardNumber } = stateRef.current;
        const { controller } = d();
        if (cartId === undefined || providerId === undefined) return;
        patch({ busy: "paying" });
        const fingerprint = `${cartId}|${providerId}|${kind === "card" ? cardNumber : ""}`;
        if (checkoutKey.current?.fingerprint !== fingerprint) {
          checkoutKey.current = { key: globalThis.crypto.randomUUID(), fingerprint };
        }
        const idempotencyKey = checkoutKey.current.key;
        try {
          let cart = currentCart();
          if (cart?.paymentProviderId !== providerId) {
            cart = await api().setCartPaymentProvider(cartId, providerId, call());
            storeCart(cart);
          }
          if (cart) {
            track("add_payment_info", {
              currency: cart.total.currency,
              value: moneyValue(cart.total),
              payment_type: providerId,
              items: cartAnalyticsItems(cart.items),
            });
          }
          const config = controller.config;
          const result = await api().checkoutCart(
            cartId,
            kind === "card"
              ? { paymentMethod: { cardNumber: cardNumber.replace(/\s+/g, "") } }
              : { returnUrl: buildReturnUrl(config.returnUrl ?? globalThis.location.href, controller.instanceId) },
            { ...call(), idempotencyKey },
          );
          if (result.status === "completed") {
            finish(result.order);
            return;
          }
          saveResume(controller.instanceId, { cartId, paymentId: result.paymentId });
          const proceed = await config.beforeRedirect?.({ url: result.redirectUrl, cartId, paymentId: result.paymentId });
          if (proceed === false) {
            patch({ busy: undefined });
            return;
          }
          (config.navigate ?? ((url: string) => globalThis.location.assign(url)))(result.redirectUrl);
        } catch (error) {
          const e = toShopError(error);
          if (e.kind !== "network") checkoutKey.current = undefined;
          if (e.kind === "payment-declined") {
            // The server unlocked the cart; refresh it so totals and status are current.
            qc().invalidateQueries({ queryKey: keys.cart(d().locale, cartId) }).catch(() => {});
          }
          fail(e, "payment", () => void actions.pay(kind));
        }
      },

      async confirmReturn(info, isLive) {
        const { controller } = d();
        const record = readResume(controller.instanceId);
        const interval = controller.config.paymentPollIntervalMs ?? 1000;
        setState((s) => ({
          ...s,
          step: "payment",
          busy: "confirming",
          ...(record?.paymentId === info.paymentId ? { cartId: record.cartId } : {}),
        }));
        try {
          const payment = await claimOnce(`${controller.instanceId}:${info.paymentId}`, async () => {
            let last: Payment | undefined;
            for (let attempt = 0; attempt < 10; attempt += 1) {
              last = await api().getPayment(info.paymentId, call());
              if (last.status !== "pending") break;
              await new Promise((resolve) => setTimeout(resolve, interval));
            }
            return last as Payment;
          });
          if (!isLive()) return;
          stateRef.current = { ...stateRef.current, cartId: payment.cartId };
          patch({ cartId: payment.cartId });
          if (payment.status === "succeeded" && payment.orderId) {
            const order = await claimOnce(`${controller.instanceId}:${payment.orderId}:order`, () =>
              api().getOrder(payment.orderId as string, call()),
            );
            if (isLive()) finish(order);
            return;
          }
          clearResume(controller.instanceId);
          qc().invalidateQueries({ queryKey: keys.cart(d().locale, payment.cartId) }).catch(() => {});
          const kind =
            payment.status === "pending"
              ? "payment-pending"
              : payment.status === "cancelled"
                ? "payment-cancelled"
                : "payment-failed";
          fail(new ShopError(kind, `Payment ${payment.status}`), "payment", () =>
            kind === "payment-pending" ? void actions.confirmReturn(info, isLive) : undefined,
          );
        } catch (error) {
          if (isLive()) fail(error, "payment", () => void actions.confirmReturn(info, isLive));
        }
      },

      async rebook() {
        const old = currentCart();
        patch({ busy: "adding" });
        try {
          cartKey.current = undefined;
          const cartId = await ensureCart(true);
          const cart = await addLines(
            cartId,
            (old?.items ?? []).map((i) => ({ articleId: i.articleId, slotId: i.slotId, quantity: i.quantity })),
          );
          if (cart) storeCart(cart);
          actions.goTo("cart");
        } catch (error) {
          fail(error, "cart", () => void actions.rebook());
        }
      },

      restart() {
        cartKey.current = undefined;
        checkoutKey.current = undefined;
        setState((s) => ({
          ...initialState(s.filters),
          customer: s.customer,
          navigation: s.navigation + 1,
        }));
      },
    };
    return actions;
  }, [patch]);

  return useMemo(() => ({ ...state, ...actions }), [state, actions]);
}
