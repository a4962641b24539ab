/**
 * Shop resources as the widget uses them (DECISIONS.md, "Shop"). Kept structurally identical to the contract's
 * schemas so the SDK's generated types can be passed in unchanged.
 */
export interface Money {
  /** Integer minor units. */
  amount: number;
  currency: string;
}

export interface Venue {
  id: string;
  name: string;
  city?: string | null;
}

export interface EventSummary {
  id: string;
  slug: string;
  name: string;
  summary?: string | null;
  venue: Venue;
  imageUrl?: string | null;
  startsAt: string;
  endsAt?: string | null;
  priceFrom?: Money | null;
  available: boolean;
}

export interface Slot {
  id: string;
  startsAt: string;
  endsAt?: string | null;
  capacity?: number | null;
  available: number | boolean;
}

export interface Article {
  id: string;
  slug: string;
  name: string;
  description?: string | null;
  price: Money;
  maxPerOrder?: number | null;
}

export interface PricingAssortment {
  id: string;
  name: string;
  articles: Article[];
}

export interface EventDetail extends EventSummary {
  description?: string | null;
  slots: Slot[];
  pricingAssortments: PricingAssortment[];
  surveyId?: string | null;
}

export interface Page<T> {
  items: T[];
  nextCursor?: string | null;
}

export interface CartItem {
  id: string;
  articleId: string;
  articleSlug?: string;
  eventId: string;
  slotId: string;
  name: string;
  quantity: number;
  unitPrice: Money;
  lineTotal: Money;
}

export type SurveyAnswer = string | number | boolean | string[];

export interface Customer {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  company?: string;
  surveyAnswers?: Record<string, SurveyAnswer>;
}

export interface Cart {
  id: string;
  status: "open" | "locked" | "completed" | "expired";
  currency: string;
  items: CartItem[];
  customer: Customer | null;
  paymentProviderId: string | null;
  total: Money;
  holdExpiresAt: string | null;
  orderId: string | null;
}

export interface PaymentProvider {
  id: string;
  name: string;
  kind: "card" | "redirect";
}

export interface Ticket {
  id: string;
  orderId: string;
  eventId: string;
  slotId: string;
  articleId: string;
  holderName?: string | null;
  quicode: string;
  ticketUrl: string;
  status: "valid" | "used" | "cancelled";
}

export interface Order {
  id: string;
  cartId: string;
  status: string;
  customer: Customer;
  items: CartItem[];
  total: Money;
  createdAt: string;
  tickets: Ticket[];
  receiptUrl: string;
}

export type CheckoutResult =
  | { status: "completed"; order: Order }
  | { status: "pending"; paymentId: string; redirectUrl: string };

export interface Payment {
  id: string;
  cartId: string;
  status: "pending" | "succeeded" | "failed" | "cancelled";
  orderId: string | null;
}

export interface EventFilters {
  dateFrom?: string;
  dateTo?: string;
  venueId?: string;
  slug?: string;
}
