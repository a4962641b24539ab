/**
 * Compile-time check (run by `tsc`, the package's typecheck): every shape the contract
 * (`@entrada/openapi/schema`) says the API returns is usable as the widget's own type, and every body the
 * widget sends is one the contract accepts. A contract change that breaks the widget fails here.
 */
import type { components, operations } from "@entrada/openapi/schema";
import type { Survey } from "../src/core/survey";
import type {
  Cart,
  CheckoutResult,
  Customer,
  EventDetail,
  EventSummary,
  Order,
  Page,
  Payment,
  PaymentProvider,
  Venue,
} from "../src/core/types";

type S = components["schemas"];
type Json<Op extends keyof operations, Status extends number> =
  operations[Op]["responses"] extends Record<Status, { content: { "application/json": infer T } }>
    ? T
    : never;
type Body<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { "application/json": infer T } };
}
  ? T
  : never;

export const responses = {
  venue: (x: S["Venue"]): Venue => x,
  summary: (x: S["EventSummary"]): EventSummary => x,
  page: (x: S["EventPage"]): Page<EventSummary> => x,
  event: (x: Json<"getEvent", 200>): EventDetail => x,
  cart: (x: S["Cart"]): Cart => x,
  provider: (x: S["PaymentProvider"]): PaymentProvider => x,
  completed: (x: S["CheckoutCompleted"]): CheckoutResult => x,
  pending: (x: S["CheckoutPending"]): CheckoutResult => x,
  payment: (x: S["Payment"]): Payment => x,
  order: (x: S["Order"]): Order => x,
  survey: (x: S["Survey"]): Survey => x,
};

export const requests = {
  customer: (x: Customer): Body<"setCartCustomer"> => x,
  item: (x: { articleId: string; slotId: string; quantity: number }): Body<"addCartItem"> => x,
  checkout: (x: { returnUrl?: string; paymentMethod?: { cardNumber: string } }): Body<"checkoutCart"> => x,
};

// Guards against a vacuous pass: the helpers must resolve to real types, not `never`.
export const resolved: Array<"ok"> = [
  "ok" satisfies [Json<"getEvent", 200>] extends [never] ? never : "ok",
  "ok" satisfies [Body<"setCartCustomer">] extends [never] ? never : "ok",
  "ok" satisfies [Body<"addCartItem">] extends [never] ? never : "ok",
  "ok" satisfies [Body<"checkoutCart">] extends [never] ? never : "ok",
];
