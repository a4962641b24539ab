import { keepPreviousData, type QueryClient, useQuery } from "@tanstack/react-query";
import type { Locale } from "../config";
import type { ShopApi } from "../core/shop-api";
import type { Cart, EventDetail, EventFilters, EventListing, Page } from "../core/types";
import { useShop } from "./context";

/**
 * Server state through TanStack Query. Query functions do not consume TanStack's AbortSignal on purpose:
 * a consumed signal cancels the request when React StrictMode unmounts and remounts, and the remount
 * requests again; without it the one request in flight is shared.
 *
 * Server state through TanStack Query. Every key includes the culture, so switching language refetches the
 * localized texts while the previous data stays on screen (no flash, no remount, focus kept).
 */
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

/** Reads started before their query existed (see {@link startCatalogue}), each taken by its query's first fetch. */
const early = new WeakMap<QueryClient, Map<string, Promise<unknown>>>();

/** A query function that takes the read already under way for `key`, once, and reads anew after that. */
function takeEarly<T>(
  client: QueryClient,
  key: readonly unknown[],
  read: () => Promise<T>,
): () => Promise<T> {
  return () => {
    const started = early.get(client);
    const hash = JSON.stringify(key);
    const promise = started?.get(hash) as Promise<T> | undefined;
    started?.delete(hash);
    return promise ?? read();
  };
}

const venuesQuery = (client: QueryClient, api: ShopApi, locale: Locale) => {
  const queryKey = keys.venues(locale);
  return { queryKey, queryFn: takeEarly(client, queryKey, () => api.listVenues({ locale })) };
};

const eventsQuery = (
  client: QueryClient,
  api: ShopApi,
  locale: Locale,
  filters: EventFilters,
  cursor: string | undefined,
) => {
  const queryKey = keys.events(locale, filters, cursor);
  return {
    queryKey,
    queryFn: takeEarly(client, queryKey, () => api.listEvents(filters, cursor, { locale })),
  };
};

export function useVenues() {
  const { api, locale, controller } = useShop();
  return useQuery({
    ...venuesQuery(controller.queryClient, api, locale),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/** One page of the catalogue; "show more" renders the next page with its own query (no infinite-query code). */
export function useEventsPage(filters: EventFilters, cursor: string | undefined) {
  const { api, locale, controller } = useShop();
  return useQuery({
    ...eventsQuery(controller.queryClient, api, locale, filters, cursor),
    placeholderData: keepPreviousData,
  });
}

/**
 * The catalogue's first reads (the venues and the first page, and with them the session token) started at mount,
 * while the step's code and texts still load, instead of after them. Not queries yet: the list's queries take these
 * reads as their first fetch, so each is sent once and its outcome (an error too) reaches the list as if it had
 * started it.
 */
export function startCatalogue(
  client: QueryClient,
  api: ShopApi,
  locale: Locale,
  filters: EventFilters,
): void {
  if (early.has(client)) return; // once per instance (StrictMode runs the mount effect twice)
  const reads = new Map<string, Promise<unknown>>();
  for (const [key, read] of [
    [keys.venues(locale), api.listVenues({ locale })],
    [keys.events(locale, filters, undefined), api.listEvents(filters, undefined, { locale })],
  ] as const) {
    read.catch(() => {}); // handled by the query that takes it
    reads.set(JSON.stringify(key), read);
  }
  early.set(client, reads);
}

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

export function useCart(id: string | undefined) {
  const { api, locale } = useShop();
  return useQuery<Cart>({
    queryKey: keys.cart(locale, id ?? ""),
    queryFn: () => api.getCart(id as string, { locale }),
    enabled: id !== undefined,
    staleTime: 5_000,
    placeholderData: (previous) => (previous?.id === id ? previous : undefined),
  });
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
