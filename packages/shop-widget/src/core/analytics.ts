export { moneyValue } from "./format";

/** A GA4 recommended e-commerce item (CONVENTIONS.md §9). */
export interface AnalyticsItem {
  item_id: string;
  item_name: string;
  item_category?: string;
  item_variant?: string;
  price?: number;
  /** The unit discount (a voucher code's share), when `price` is discounted. */
  discount?: number;
  quantity?: number;
  index?: number;
}

export type AnalyticsEventName =
  | "view_item_list"
  | "select_item"
  | "view_item"
  | "add_to_cart"
  | "remove_from_cart"
  | "view_cart"
  | "begin_checkout"
  | "add_payment_info"
  | "purchase";

export interface AnalyticsParams {
  items: AnalyticsItem[];
  currency?: string;
  value?: number;
  transaction_id?: string;
  /** The voucher code of the cart or order. */
  coupon?: string;
  item_list_id?: string;
  item_list_name?: string;
  payment_type?: string;
}

export interface AnalyticsEvent {
  name: AnalyticsEventName;
  params: AnalyticsParams;
}

export interface AnalyticsSink {
  onEvent?: ((event: AnalyticsEvent) => void) | undefined;
  dataLayer?: unknown[] | undefined;
}

export interface Tracker {
  track(name: AnalyticsEventName, params: AnalyticsParams): void;
}

/** Resolves the `dataLayer` option to an array (creating `window[name]` when missing). */
export function resolveDataLayer(option: boolean | string | unknown[] | undefined): unknown[] | undefined {
  if (option === undefined || option === false) return undefined;
  if (Array.isArray(option)) return option;
  const name = option === true ? "dataLayer" : option;
  const scope = globalThis as unknown as Record<string, unknown>;
  if (!Array.isArray(scope[name])) scope[name] = [];
  return scope[name] as unknown[];
}

/**
 * GA4 events to a callback and/or a data layer. Off unless a sink is configured. `currency` is added
 * whenever `value` is set; `purchase` is sent once per `transaction_id` (`seen` persists that across
 * remounts and returns from a payment page).
 */
export function createTracker(
  getSink: () => AnalyticsSink,
  seen: { has(id: string): boolean; add(id: string): void },
): Tracker {
  return {
    track(name, params) {
      const sink = getSink();
      if (sink.onEvent === undefined && sink.dataLayer === undefined) return;
      if (params.value !== undefined && params.currency === undefined) {
        throw new Error(`analytics: ${name} has a value but no currency`);
      }
      if (name === "purchase") {
        const id = params.transaction_id;
        if (id === undefined || seen.has(id)) return;
        seen.add(id);
      }
      const event: AnalyticsEvent = { name, params };
      if (sink.dataLayer !== undefined) {
        sink.dataLayer.push({ ecommerce: null });
        sink.dataLayer.push({ event: name, ecommerce: structuredClone(params) });
      }
      sink.onEvent?.(event);
    },
  };
}
