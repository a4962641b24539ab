// Compile-time checks that the generated types say what DECISIONS.md says (run by `pnpm typecheck`, which
// compiles generated/*.d.ts without skipLibCheck). A failing assignment here is a type error, not a test failure.
import type { components, operations, paths } from "../../generated/schema";

type Schemas = components["schemas"];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

assertType<Equal<Schemas["Cart"]["status"], "open" | "locked" | "completed" | "expired">>();
assertType<Equal<Schemas["Cart"]["customer"], Schemas["Customer"] | null>>();
assertType<Equal<Schemas["Money"]["currency"], "CHF" | "EUR">>();
assertType<Equal<Schemas["EventPage"]["nextCursor"], string | null>>();
assertType<Equal<Schemas["CheckoutCompleted"]["status"], "completed">>();
assertType<Equal<Schemas["CheckoutPending"]["status"], "pending">>();

// Adding an item takes an article id or a slug, never neither.
const byId: Schemas["AddCartItemRequest"] = { articleId: "art_1", slotId: "slt_1", quantity: 1 };
const bySlug: Schemas["AddCartItemRequest"] = { articleSlug: "adult", slotId: "slt_1", quantity: 1 };
// @ts-expect-error an item needs an article id or slug
const neither: Schemas["AddCartItemRequest"] = { slotId: "slt_1", quantity: 1 };

// Checkout answers 200 with the order or 202 with a redirect.
type Checkout = operations["checkoutCart"]["responses"];
const completed: Checkout[200]["content"]["application/json"]["status"] = "completed";
const pending: Checkout[202]["content"]["application/json"]["status"] = "pending";

// The cart path uses `{id}` as in the service description.
type CartPath = paths["/shop/v1/cart/{id}/checkout"]["post"]["parameters"]["path"];
const cartPath: CartPath = { id: "crt_1" };

// Token errors are RFC 6749 codes.
type TokenError = operations["createToken"]["responses"][400]["content"]["application/json"]["error"];
const tokenError: TokenError = "invalid_scope";

export const samples = [byId, bySlug, neither, completed, pending, cartPath, tokenError];

// Request-body fields with a server default are optional (generated with `defaultNonNullable: false`); the same
// fields in the response the server always sends stay required.
const subscription: Schemas["WebhookSubscriptionCreate"] = {
  url: "https://hooks.example.com/entrada",
  eventTypes: ["cart.completed"],
};
assertType<Equal<Schemas["WebhookSubscriptionCreate"]["enabled"], boolean | undefined>>();
assertType<Equal<Schemas["WebhookSubscription"]["enabled"], boolean>>();
export const defaultsSamples = [subscription];
