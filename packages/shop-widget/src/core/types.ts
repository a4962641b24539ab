/**
 * Shop resources as the widget uses them: the contract's own schemas, generated from the OpenAPI document and
 * re-exported by `@entrada/sdk` (type-only: nothing of the SDK's main entry reaches the bundle). Never copied by
 * hand, so a contract change (a new field such as `Order.analytics`) reaches the widget's types with `pnpm generate`.
 */
import type { CheckoutCartResult, Event, EventListItem, EventPage } from "@entrada/sdk";

export type {
  Article,
  Cart,
  CartItem,
  Customer,
  EventSummary,
  Money,
  Order,
  Payment,
  PaymentProvider,
  PricingAssortment,
  Slot,
  SurveyAnswer,
  Ticket,
  Venue,
} from "@entrada/sdk";

/** An event with its slots and pricing assortments (the contract's `Event`). */
export type EventDetail = Event;

/**
 * An event of a catalogue page as the widget asks for it (`include=slots,assortments`): the summary with its
 * slots and pricing assortments, so the event step can render from the list without waiting for `getEvent`.
 */
export type EventListing = EventListItem & Pick<Event, "slots" | "pricingAssortments">;

/** What a checkout answers: the order, or a payment to finish at the provider. */
export type CheckoutResult = CheckoutCartResult;

/** One page of a cursor-paged list (the contract's `…Page` envelopes). */
export type Page<T> = Omit<EventPage, "items"> & { items: T[] };

export interface EventFilters {
  dateFrom?: string;
  dateTo?: string;
  venueId?: string;
  slug?: string;
}
