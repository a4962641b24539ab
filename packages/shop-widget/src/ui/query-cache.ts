/**
 * The query cache's keys and the helpers that read and write it outside a query (a leaf: the hooks in `queries.ts`,
 * the mutations and the steps import from here). Every key includes the culture, so switching language refetches
 * the localized texts while the previous data stays on screen (no flash, no remount, focus kept).
 */
import type { QueryClient } from "@tanstack/react-query";
import type { Locale } from "../config";
import type { Cart, EventDetail, EventFilters, EventListing, Page } from "../core/types";

/** The key of each query: `["entrada", culture, kind, …]`. */
export const keys = {
  venues: (locale: Locale) => ["entrada", locale, "venues"] as const,
  events: (locale: Locale, filters: EventFilters, cursor: string | undefined) =>
    ["entrada", locale, "events", filters, cursor ?? null] as const,
  event: (locale: Locale, id: string) => ["entrada", locale, "event", id] as const,
  cart: (locale: Locale, id: string) => ["entrada", locale, "cart", id] as const,
  providers: (locale: Locale, cartId: string) => ["entrada", locale, "providers", cartId] as const,
  survey: (locale: Locale, id: string) => ["entrada", locale, "survey", id] as const,
  payment: (locale: Locale, id: string) => ["entrada", locale, "payment", id] as const,
  order: (locale: Locale, id: string) => ["entrada", locale, "order", id] as const,
};

/**
 * The event as a catalogue page already listed it (with its slots and assortments, `include=slots,assortments`),
 * shaped as the event step's data: the step renders from it at once, without waiting for `getEvent`, whose
 * answer (the full `description`, `surveyId`, fresh availability) replaces it when it arrives. Only ever
 * placeholder data: never written to the event's cache, so nothing downstream reads the stand-ins (the summary
 * for the description, no survey).
 */
export function listedEvent(client: QueryClient, locale: Locale, id: string): EventDetail | undefined {
  for (const [, page] of client.getQueriesData<Page<EventListing>>({
    queryKey: ["entrada", locale, "events"],
  })) {
    const item = page?.items.find((e) => e.id === id);
    if (item?.slots && item.pricingAssortments) return { ...item, description: item.summary, surveyId: null };
  }
  return undefined;
}

/**
 * A cart a write answered, into the cache: this culture's copy is replaced, other cultures' copies are dropped
 * (outdated now; they refetch when their language comes back).
 */
export function putCart(queryClient: QueryClient, locale: Locale, cart: Cart): void {
  queryClient.removeQueries({
    predicate: (q) => q.queryKey[2] === "cart" && q.queryKey[3] === cart.id && q.queryKey[1] !== locale,
  });
  queryClient.setQueryData(keys.cart(locale, cart.id), cart);
}

/** The cart as this culture's cache holds it (undefined before its first read or write). */
export function cachedCart(queryClient: QueryClient, locale: Locale, id: string): Cart | undefined {
  return queryClient.getQueryData<Cart>(keys.cart(locale, id));
}

/** The cart read anew (its status and totals changed on the server); a failed read shows where the cart does. */
export function refreshCart(queryClient: QueryClient, locale: Locale, id: string): void {
  queryClient.invalidateQueries({ queryKey: keys.cart(locale, id) }).catch(() => {});
}
