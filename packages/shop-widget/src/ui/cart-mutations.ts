import { isErrorKind, isProblem } from "@entrada/sdk/shop";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AnalyticsItem } from "../core/analytics";
import { moneyValue } from "../core/format";
import { cartRef } from "../core/resume";
import type { SurveyAnswer } from "../core/survey";
import type { Cart, CartItem, EventDetail } from "../core/types";
import { uuid } from "../core/uuid";
import { useShop } from "./context";
import { cartAnalyticsItems, currentCart, setCartId, sumItems, track, trackEntered } from "./journey-effects";
import type { JourneyContext, Selection } from "./journey-state";
import { putCart } from "./query-cache";

/**
 * The buyer's writes to the cart, as TanStack mutations. They share one scope, so writes to the cart run one
 * after the other in the order the buyer made them (two quick quantity changes never race). Each hook owns its
 * cache update: its `onSuccess` puts the cart the server answered into the query cache (`putCart`, in the
 * culture shown by then). On failure it shows the error on its step with a retry that runs the same mutation
 * with the same variables.
 */
const CART_SCOPE = { id: "entrada-cart" };

type Line = { articleId: string; slotId: string; quantity: number };

const call = (ctx: JourneyContext) => ({ locale: ctx.deps().locale });
const api = (ctx: JourneyContext) => ctx.deps().controller.api;

/**
 * The buyer's cart, created on first use (one idempotency key per creation: a doubled create is one cart). A new
 * cart goes into the cache and is remembered for a reload at once, even if adding to it then fails.
 */
async function ensureCart(ctx: JourneyContext, fresh = false): Promise<string> {
  const existing = ctx.state.current.cartId;
  if (existing !== undefined && !fresh) return existing;
  if (fresh) ctx.cartKey.current = undefined;
  ctx.cartKey.current ??= uuid();
  const cart = await api(ctx).createCart({}, { ...call(ctx), idempotencyKey: ctx.cartKey.current });
  const { controller, locale } = ctx.deps();
  putCart(controller.queryClient, locale, cart);
  cartRef(controller.instanceId, cart.id);
  setCartId(ctx, cart.id);
  return cart.id;
}

async function addLines(ctx: JourneyContext, cartId: string, lines: Line[]): Promise<Cart | undefined> {
  let cart: Cart | undefined;
  for (const line of lines) cart = await api(ctx).addCartItem(cartId, line, call(ctx));
  return cart;
}

/** Adds the selection to the cart (a new cart when the previous one is gone), then shows the cart. */
export function useAddToCart() {
  const ctx = useShop().journey.context;
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationKey: ["entrada", "cart", "add"],
    scope: CART_SCOPE,
    mutationFn: async ({ lines }: { event: EventDetail; lines: Line[] }) => {
      let cartId = await ensureCart(ctx);
      try {
        return await addLines(ctx, cartId, lines);
      } catch (error) {
        // The previous cart is gone (expired, paid or locked): start a new one and add again.
        const gone =
          isProblem(error, "hold-expired") ||
          isProblem(error, "cart-locked") ||
          isProblem(error, "not-found");
        if (!gone) throw error;
        cartId = await ensureCart(ctx, true);
        return await addLines(ctx, cartId, lines);
      }
    },
    onSuccess: (cart, { event, lines }) => {
      if (cart === undefined) return;
      putCart(queryClient, ctx.deps().locale, cart);
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
      track(ctx, "add_to_cart", { currency: cart.currency, value: sumItems(items), items });
      const deps = ctx.deps();
      deps.announce(deps.texts.added(deps.money(cart.total)));
      ctx.setState((s) => ({ ...s, selections: { ...s.selections, [event.id]: { quantities: {} } } }));
      ctx.goTo("cart");
      trackEntered(ctx, "cart");
    },
    onError: (error, variables) => ctx.fail(error, "event", () => mutation.mutate(variables)),
  });
  return {
    ...mutation,
    add(event: EventDetail, selection: Selection) {
      const slotId = selection.slotId;
      if (slotId === undefined) return;
      const lines = Object.entries(selection.quantities)
        .filter(([, quantity]) => quantity > 0)
        .map(([articleId, quantity]) => ({ articleId, slotId, quantity }));
      if (lines.length > 0) mutation.mutate({ event, lines });
    },
  };
}

/** A new quantity for a line (0 removes it). */
export function useChangeQuantity() {
  const ctx = useShop().journey.context;
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationKey: ["entrada", "cart", "quantity"],
    scope: CART_SCOPE,
    mutationFn: ({ cartId, item, quantity }: { cartId: string; item: CartItem; quantity: number }) =>
      quantity < 1
        ? api(ctx).removeCartItem(cartId, item.id, call(ctx))
        : api(ctx).updateCartItem(cartId, item.id, quantity, call(ctx)),
    onSuccess: (cart, { item, quantity }) => {
      putCart(queryClient, ctx.deps().locale, cart);
      const deps = ctx.deps();
      const removed = quantity < 1;
      const delta = (removed ? 0 : quantity) - item.quantity;
      const [line] = cartAnalyticsItems([item]);
      track(ctx, delta > 0 ? "add_to_cart" : "remove_from_cart", {
        currency: cart.currency,
        value: Math.abs(delta) * moneyValue(item.unitPrice),
        items: line ? [{ ...line, quantity: Math.abs(delta) }] : [],
      });
      deps.announce(
        removed
          ? deps.texts.removed(item.name, deps.money(cart.total))
          : deps.texts.changed(item.name, quantity, deps.money(cart.total)),
      );
    },
    onError: (error, variables) => ctx.fail(error, "cart", () => mutation.mutate(variables)),
  });
  return {
    ...mutation,
    change(item: CartItem, quantity: number) {
      const cartId = ctx.state.current.cartId;
      if (cartId === undefined || quantity === item.quantity) return;
      mutation.mutate({ cartId, item, quantity: Math.max(0, quantity) });
    },
  };
}

/** The same tickets again in a new cart, after the hold ran out. */
export function useRebook() {
  const ctx = useShop().journey.context;
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationKey: ["entrada", "cart", "rebook"],
    scope: CART_SCOPE,
    mutationFn: async (lines: Line[]) => addLines(ctx, await ensureCart(ctx, true), lines),
    onSuccess: (cart) => {
      if (cart) putCart(queryClient, ctx.deps().locale, cart);
      ctx.goTo("cart");
    },
    onError: (error, variables) => ctx.fail(error, "cart", () => mutation.mutate(variables)),
  });
  return {
    ...mutation,
    rebook() {
      const lines = (currentCart(ctx)?.items ?? []).map((i) => ({
        articleId: i.articleId,
        slotId: i.slotId,
        quantity: i.quantity,
      }));
      mutation.mutate(lines);
    },
  };
}

/** The buyer's details and survey answers on the cart, then the payment step. */
export function useSaveDetails() {
  const ctx = useShop().journey.context;
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationKey: ["entrada", "cart", "customer"],
    scope: CART_SCOPE,
    mutationFn: ({ cartId, answers }: { cartId: string; answers: Record<string, SurveyAnswer> }) => {
      const { customer } = ctx.state.current;
      const trimmed = (v: string) => v.trim();
      return api(ctx).setCartCustomer(
        cartId,
        {
          firstName: trimmed(customer.firstName),
          lastName: trimmed(customer.lastName),
          email: trimmed(customer.email),
          ...(trimmed(customer.phone) ? { phone: trimmed(customer.phone) } : {}),
          ...(trimmed(customer.company) ? { company: trimmed(customer.company) } : {}),
          ...(Object.keys(answers).length > 0 ? { surveyAnswers: answers } : {}),
        },
        call(ctx),
      );
    },
    onSuccess: (cart) => {
      putCart(queryClient, ctx.deps().locale, cart);
      ctx.goTo("payment");
    },
    onError: (error, variables) => {
      // Refused details the host locked: the buyer cannot correct them, only the organiser can. Nothing was
      // saved (the server takes the details whole or not at all); no retry is offered. The host hears the API's
      // `validation-error`, whose `errors` point at the refused fields.
      const { locked } = ctx.state.current;
      const refused =
        isErrorKind(error, "problem") &&
        error.errors.some((f) => locked.some((field) => f.pointer === `/body/${field}`));
      if (refused) return ctx.tell("buyer-refused", "details", { error });
      ctx.fail(error, "details", () => mutation.mutate(variables));
    },
  });
  return {
    ...mutation,
    /** Saves the details typed so far with these (validated) survey answers. */
    save(answers: Record<string, SurveyAnswer>) {
      const cartId = ctx.state.current.cartId;
      if (cartId !== undefined) mutation.mutate({ cartId, answers });
    },
  };
}
