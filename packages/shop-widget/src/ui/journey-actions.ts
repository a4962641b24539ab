import type { Step } from "../config";
import type { AnalyticsItem } from "../core/analytics";
import { readGa4Ids } from "../core/analytics-ga4-ids";
import { moneyValue } from "../core/format";
import { ShopError, toShopError } from "../core/problem";
import { purchaseParams } from "../core/purchase-analytics";
import { cartRef, type ReturnInfo } from "../core/resume";
import {
  buildReturnUrl,
  claimOnce,
  clearResume,
  purchasedSet,
  readResume,
  saveResume,
} from "../core/resume-store";
import type { Cart, CartItem, EventDetail, Order, Payment } from "../core/types";
import { uuid } from "../core/uuid";
import type { Controller } from "./controller";
import type { JourneyContext, JourneyState, Selection } from "./journey";
import { keys } from "./queries";

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

export interface AsyncActions {
  entered(step: Step): void;
  addToCart(event: EventDetail, selection: Selection): Promise<void>;
  changeQuantity(item: CartItem, quantity: number): Promise<void>;
  removeItem(item: CartItem): Promise<void>;
  saveDetails(): Promise<boolean>;
  pay(providerKind: "card" | "redirect"): Promise<void>;
  confirmReturn(info: ReturnInfo, isLive: () => boolean): Promise<void>;
  rebook(): Promise<void>;
}

/** The journey's server-side actions: cart, details, payment, return from a payment page. */
export function createAsyncActions(ctx: JourneyContext): AsyncActions {
  const d = ctx.deps;
  const call = () => ({ locale: d().locale });
  const api = () => d().controller.api;
  const qc = () => d().controller.queryClient;
  const track = (...args: Parameters<Controller["tracker"]["track"]>) =>
    d().controller.tracker.track(...args);
  const patch = (p: Partial<JourneyState>) => ctx.setState((s) => ({ ...s, ...p }));
  const { fail, goTo } = ctx;

  const storeCart = (cart: Cart) => {
    const { locale } = d();
    // Other cultures' copies of this cart are outdated now; they refetch when their language comes back.
    qc().removeQueries({
      predicate: (q) => q.queryKey[2] === "cart" && q.queryKey[3] === cart.id && q.queryKey[1] !== locale,
    });
    qc().setQueryData(keys.cart(locale, cart.id), cart);
    cartRef(d().controller.instanceId, cart.id);
  };
  const currentCart = (): Cart | undefined => {
    const id = ctx.state.current.cartId;
    return id === undefined ? undefined : qc().getQueryData<Cart>(keys.cart(d().locale, id));
  };
  const setCartId = (cartId: string) => {
    ctx.state.current = { ...ctx.state.current, cartId };
    patch({ cartId });
  };

  const ensureCart = async (fresh = false): Promise<string> => {
    const existing = ctx.state.current.cartId;
    if (existing !== undefined && !fresh) return existing;
    ctx.cartKey.current ??= uuid();
    const cart = await api().createCart({}, { ...call(), idempotencyKey: ctx.cartKey.current });
    storeCart(cart);
    setCartId(cart.id);
    return cart.id;
  };

  const addLines = async (
    cartId: string,
    lines: Array<{ articleId: string; slotId: string; quantity: number }>,
  ) => {
    let cart: Cart | undefined;
    for (const line of lines) cart = await api().addCartItem(cartId, line, call());
    return cart;
  };

  const finish = (order: Order) => {
    const { controller } = d();
    clearResume(controller.instanceId);
    cartRef(controller.instanceId, null);
    ctx.cartKey.current = undefined;
    ctx.checkoutKey.current = undefined;
    // Persisted per instance: a reload, a second mount or a StrictMode re-run never completes it twice.
    const completed = purchasedSet(controller.instanceId);
    if (!completed.has(order.id)) {
      track("purchase", purchaseParams(order));
      completed.add(order.id);
      controller.notify("checkoutcomplete", order);
      controller.notify("cartchange", null);
    }
    const { cartId: _c, ...rest } = ctx.state.current;
    ctx.state.current = { ...rest, step: "confirmation", order };
    ctx.setState((s) => {
      const { cartId: _cart, error: _error, ...others } = s;
      return { ...others, order, step: "confirmation", busy: undefined, navigation: s.navigation + 1 };
    });
  };

  const actions: AsyncActions = {
    entered(step) {
      const cart = currentCart();
      if (cart === undefined) return;
      const params = {
        currency: cart.total.currency,
        value: moneyValue(cart.total),
        ...(cart.discounts[0] ? { coupon: cart.discounts[0].code } : {}),
        items: cartAnalyticsItems(cart.items),
      };
      if (step === "cart") track("view_cart", params);
      if (step === "details") track("begin_checkout", params);
    },

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
          ctx.cartKey.current = undefined;
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
        ctx.setState((s) => ({ ...s, selections: { ...s.selections, [event.id]: { quantities: {} } } }));
        goTo("cart");
        actions.entered("cart");
      } catch (error) {
        fail(error, "event", () => void actions.addToCart(event, selection));
      }
    },

    async changeQuantity(item, quantity) {
      const cartId = ctx.state.current.cartId;
      if (cartId === undefined || quantity === item.quantity) return;
      if (quantity < 1) return actions.removeItem(item);
      patch({ busy: "updating" });
      try {
        const cart = await api().updateCartItem(cartId, item.id, quantity, call());
        storeCart(cart);
        patch({ busy: undefined });
        const delta = quantity - item.quantity;
        const [line] = cartAnalyticsItems([item]);
        track(delta > 0 ? "add_to_cart" : "remove_from_cart", {
          currency: cart.currency,
          value: Math.abs(delta) * moneyValue(item.unitPrice),
          items: line ? [{ ...line, quantity: Math.abs(delta) }] : [],
        });
        d().announce(d().texts.changed(item.name, quantity, d().money(cart.total)));
      } catch (error) {
        fail(error, "cart", () => void actions.changeQuantity(item, quantity));
      }
    },

    async removeItem(item) {
      const cartId = ctx.state.current.cartId;
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

    async saveDetails() {
      const { cartId, customer, answers } = ctx.state.current;
      if (cartId === undefined) return false;
      patch({ busy: "saving" });
      try {
        const trimmed = (v: string) => v.trim();
        const cart = await api().setCartCustomer(
          cartId,
          {
            firstName: trimmed(customer.firstName),
            lastName: trimmed(customer.lastName),
            email: trimmed(customer.email),
            ...(trimmed(customer.phone) ? { phone: trimmed(customer.phone) } : {}),
            ...(trimmed(customer.company) ? { company: trimmed(customer.company) } : {}),
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
      const { cartId, providerId, cardNumber } = ctx.state.current;
      const { controller } = d();
      if (cartId === undefined || providerId === undefined) return;
      patch({ busy: "paying" });
      // Only with the host's measurement id (analytics consent); bounded, never fails the payment.
      const visitor = readGa4Ids(controller.config.analytics?.measurementId);
      try {
        let cart = currentCart();
        if (cart?.paymentProviderId !== providerId) {
          cart = await api().setCartPaymentProvider(cartId, providerId, call());
          storeCart(cart);
        }
        track("add_payment_info", {
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
        const result = await api().checkoutCart(
          cartId,
          {
            ...(kind === "card"
              ? { paymentMethod: { cardNumber: cardNumber.replace(/\s+/g, "") } }
              : {
                  returnUrl: buildReturnUrl(
                    config.returnUrl ?? globalThis.location.href,
                    controller.instanceId,
                  ),
                }),
            ...(analytics ? { analytics } : {}),
          },
          { ...call(), idempotencyKey: ctx.checkoutKey.current.key },
        );
        if (result.status === "completed") {
          finish(result.order);
          return;
        }
        // Leaving the page: only references go to sessionStorage, never personal data.
        saveResume(controller.instanceId, { cartId, paymentId: result.paymentId });
        const proceed = await config.beforeRedirect?.({
          url: result.redirectUrl,
          cartId,
          paymentId: result.paymentId,
        });
        if (proceed === false) {
          patch({ busy: undefined });
          return;
        }
        (config.navigate ?? ((url: string) => globalThis.location.assign(url)))(result.redirectUrl);
      } catch (error) {
        const e = toShopError(error);
        if (e.kind !== "network") ctx.checkoutKey.current = undefined;
        // A declined payment unlocks the cart; refresh it so its status and totals are current.
        if (e.kind === "payment-declined")
          qc()
            .invalidateQueries({ queryKey: keys.cart(d().locale, cartId) })
            .catch(() => {});
        fail(e, "payment", () => void actions.pay(kind));
      }
    },

    async confirmReturn(info, isLive) {
      const { controller } = d();
      const record = readResume(controller.instanceId);
      const interval = controller.config.paymentPollIntervalMs ?? 1000;
      ctx.setState((s) => ({
        ...s,
        step: "payment",
        busy: "confirming",
        ...(record?.paymentId === info.paymentId ? { cartId: record.cartId } : {}),
      }));
      try {
        // Shared by every mount of this instance (StrictMode, a double mount): one confirmation, one order.
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
        setCartId(payment.cartId);
        if (payment.status === "succeeded" && payment.orderId) {
          const orderId = payment.orderId;
          const order = await claimOnce(`${controller.instanceId}:${orderId}:order`, () =>
            api().getOrder(orderId, call()),
          );
          if (isLive()) finish(order);
          return;
        }
        if (payment.status !== "pending") clearResume(controller.instanceId);
        qc()
          .invalidateQueries({ queryKey: keys.cart(d().locale, payment.cartId) })
          .catch(() => {});
        const kind =
          payment.status === "pending"
            ? "payment-pending"
            : payment.status === "cancelled"
              ? "payment-cancelled"
              : "payment-failed";
        fail(
          new ShopError(kind, `Payment ${payment.status}`),
          "payment",
          kind === "payment-pending" ? () => void actions.confirmReturn(info, isLive) : undefined,
        );
      } catch (error) {
        if (isLive()) fail(error, "payment", () => void actions.confirmReturn(info, isLive));
      }
    },

    async rebook() {
      const old = currentCart();
      patch({ busy: "adding" });
      try {
        ctx.cartKey.current = undefined;
        const cartId = await ensureCart(true);
        const cart = await addLines(
          cartId,
          (old?.items ?? []).map((i) => ({ articleId: i.articleId, slotId: i.slotId, quantity: i.quantity })),
        );
        if (cart) storeCart(cart);
        goTo("cart");
      } catch (error) {
        fail(error, "cart", () => void actions.rebook());
      }
    },
  };
  return actions;
}
