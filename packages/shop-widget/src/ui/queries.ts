import { keepPreviousData, type QueryClient, useQuery } from "@tanstack/react-query";
import type { Locale } from "../config";
import type { ShopApi } from "../core/shop-api";
import type { Cart, EventFilters } from "../core/types";
import { catalogueReads } from "../early";
import { useShop } from "./context";
import { keys } from "./query-cache";

/**
 * Server state through TanStack Query. Query functions do not consume TanStack's AbortSignal on purpose: a
 * consumed signal cancels the request when React StrictMode unmounts and remounts, and the remount requests again;
 * without it the one request in flight is shared. Keys and cache helpers: `query-cache.ts`.
 */

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

export function useVenues() {
  const { api, locale, controller } = useShop();
  const queryKey = keys.venues(locale);
  return useQuery({
    queryKey,
    queryFn: takeEarly(controller.queryClient, queryKey, () => api.listVenues({ locale })),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/** One page of the catalogue; "show more" renders the next page with its own query (no infinite-query code). */
export function useEventsPage(filters: EventFilters, cursor: string | undefined) {
  const { api, locale, controller } = useShop();
  const queryKey = keys.events(locale, filters, cursor);
  return useQuery({
    queryKey,
    queryFn: takeEarly(controller.queryClient, queryKey, () => api.listEvents(filters, cursor, { locale })),
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
  instanceId: string,
): void {
  if (early.has(client)) return; // once per instance (StrictMode runs the mount effect twice)
  adoptReads(client, catalogueReads(api, locale, filters, instanceId));
}

/** Reads started before the queries' client existed (the script tag's `mount`), taken as their first fetches. */
export function adoptReads(client: QueryClient, reads: Map<string, Promise<unknown>>): void {
  early.set(client, reads);
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
