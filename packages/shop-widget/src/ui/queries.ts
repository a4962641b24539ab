import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Cart, EventFilters } from "../core/types";
import { useShop } from "./context";
import { keys } from "./query-cache";

/**
 * Server state through TanStack Query. Query functions do not consume TanStack's AbortSignal on purpose: a
 * consumed signal cancels the request when React StrictMode unmounts and remounts, and the remount requests again;
 * without it the one request in flight is shared. Keys and cache helpers: `query-cache.ts`.
 */
export function useVenues() {
  const { api, locale } = useShop();
  return useQuery({
    queryKey: keys.venues(locale),
    queryFn: () => api.listVenues({ locale }),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/** One page of the catalogue; "show more" renders the next page with its own query (no infinite-query code). */
export function useEventsPage(filters: EventFilters, cursor: string | undefined) {
  const { api, locale } = useShop();
  return useQuery({
    queryKey: keys.events(locale, filters, cursor),
    queryFn: () => api.listEvents(filters, cursor, { locale }),
    placeholderData: keepPreviousData,
  });
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
