import type { OperationContext } from "../../core/types.ts";
import { cartCap, wasEvicted } from "./cart-cap.ts";
import { webhookCart } from "./events.ts";
import { releaseCart, sweepHolds } from "./holds.ts";
import { sweepOrders } from "./order-cap.ts";
import { sweepCarts } from "./retention.ts";
import { type CartRecord, type ShopState, shopSlice } from "./state.ts";

/** The shop state with expired holds released and long-abandoned carts dropped (write paths only). */
export function load(ctx: OperationContext): { state: ShopState; now: number } {
  const state = shopSlice(ctx.world);
  const now = ctx.clock.now();
  sweepHolds(state, now);
  if (ctx.method !== "GET" && ctx.method !== "HEAD") {
    sweepCarts(state, now);
    sweepOrders(state, now);
  }
  return { state, now };
}

export function notFound(
  ctx: OperationContext,
  what: { de: string; fr: string; it: string; en: string },
): never {
  return ctx.problem(
    "not-found",
    ctx.text({ "de-CH": what.de, "fr-CH": what.fr, "it-CH": what.it, "en-GB": what.en }),
  );
}

/** A cart the caller may see: its own client's carts; a session token only its own session's. */
export function findCart(
  ctx: OperationContext,
  state: ShopState,
  now: number,
  id = ctx.params.id ?? "",
): CartRecord {
  const cart = state.carts[id];
  const auth = ctx.auth;
  const visible =
    cart !== undefined &&
    (auth === null ||
      (cart.clientId === auth.clientId &&
        (auth.kind !== "session" || cart.sessionId === (auth.sessionId ?? null))));
  if (!cart && wasEvicted(state, id)) {
    const cap = cartCap(state);
    return notFound(ctx, {
      de: `Der Warenkorb ${id} wurde verdrängt: der Mock behält höchstens ${cap} Warenkörbe pro Sitzung, die ältesten gehen zuerst (shop.maxCarts im Seed).`,
      fr: `Le panier ${id} a été évincé : le mock garde au plus ${cap} paniers par session, les plus anciens partent en premier (shop.maxCarts dans le seed).`,
      it: `Il carrello ${id} è stato rimosso: il mock tiene al massimo ${cap} carrelli per sessione, i più vecchi escono per primi (shop.maxCarts nel seed).`,
      en: `The cart ${id} was evicted: the mock keeps at most ${cap} carts per session, oldest first (shop.maxCarts in the seed).`,
    });
  }
  if (!cart || !visible) {
    return notFound(ctx, {
      de: `Es gibt keinen Warenkorb ${id}.`,
      fr: `Aucun panier ${id}.`,
      it: `Nessun carrello ${id}.`,
      en: `There is no cart ${id}.`,
    });
  }
  if (cart.status === "open" && cart.updatedAt + state.config.cartTtlSeconds * 1000 <= now) {
    releaseCart(state, cart);
    cart.status = "expired";
    cart.holdExpiresAt = null;
    ctx.emit("cart.expired", { cart: webhookCart(state, cart) });
  }
  return cart;
}

/** Throws the matching 409 unless the cart is open: every cart change and the checkout share it. */
export function assertOpen(ctx: OperationContext, cart: CartRecord): void {
  if (cart.status === "open") return;
  if (cart.status === "locked") {
    ctx.problem("cart-locked", undefined, { cartId: cart.id, paymentId: cart.paymentId });
  }
  if (cart.status === "completed") {
    ctx.problem(
      "conflict",
      ctx.text({
        "de-CH": "Der Warenkorb ist bereits bezahlt.",
        "fr-CH": "Le panier est déjà payé.",
        "it-CH": "Il carrello è già pagato.",
        "en-GB": "The cart is already paid.",
      }),
      { cartId: cart.id, orderId: cart.orderId },
    );
  }
  ctx.problem(
    "conflict",
    ctx.text({
      "de-CH": "Der Warenkorb ist abgelaufen. Bitte einen neuen erstellen.",
      "fr-CH": "Le panier a expiré. Veuillez en créer un nouveau.",
      "it-CH": "Il carrello è scaduto. Crearne uno nuovo.",
      "en-GB": "The cart has expired. Create a new one.",
    }),
    { cartId: cart.id },
  );
}

export function invalid(ctx: OperationContext, pointer: string, detail: string): never {
  return ctx.problem("unprocessable", detail, { errors: [{ pointer, detail }] });
}
