/** What the checkout example needs, and how it reads it from the environment. */

import { randomUUID } from "node:crypto";
import type { components } from "@entrada/sdk";

export type Customer = components["schemas"]["Customer"];

/** The local mock (`pnpm mock`) and its demo client, so `pnpm start` works without any setup. */
export const MOCK_BASE_URL = "http://127.0.0.1:4010";
const DEMO_CLIENT_ID = "entrada-demo";
const DEMO_CLIENT_SECRET = "demo-secret";
/** The mock's card that always succeeds (`4000000000000002` always declines). */
export const SUCCEEDING_TEST_CARD = "4242424242424242";

export interface CheckoutExampleOptions {
  /** API base address, e.g. `https://api.entrada.dev` or the mock's `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** Client credentials with scope `Shop` (they stay on this backend). */
  clientId: string;
  clientSecret: string;
  /** Client credentials with scope `TERP` for the entrance scan (default: the shop credentials). */
  terpClientId?: string;
  terpClientSecret?: string;
  /** `Accept-Language` for every textual field, from the event list to the scan result. */
  locale: string;
  /** Discovery filters: events in the next `days` days, optionally at one venue or with one slug. */
  days: number;
  venueId?: string;
  eventSlug?: string;
  /** The article to buy, addressed by its slug (e.g. `adult`), and how many. */
  articleSlug: string;
  quantity: number;
  customer: Customer;
  /** Card number for the `card` provider. */
  cardNumber: string;
  /** Origin of the page that embeds the shop widget (the session token is bound to it). */
  shopOrigin: string;
  /**
   * Your own reference for this purchase. The idempotency keys derive from it, so running the same purchase again
   * (after a crash, a timeout, a redeploy) replays the original responses instead of buying twice.
   */
  orderReference: string;
  /**
   * Only against the mock: the seeded events lie in the future, so before scanning, move the mock's clock to the
   * doors opening of the bought slot (developer control `POST /__mock/clock`) and back to real time afterwards.
   */
  mockClock: boolean;
  /** Injected `fetch` (proxies, tests); default the global one. */
  fetch?: (request: Request) => Promise<Response>;
  /** Where progress lines go (default `console.log`). */
  log?: (line: string) => void;
}

/** Options from `ENTRADA_*` environment variables, defaulting to the local mock and its demo client. */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): CheckoutExampleOptions {
  const baseUrl = env.ENTRADA_BASE_URL || MOCK_BASE_URL;
  const againstMock = !env.ENTRADA_BASE_URL;
  const clientId = env.ENTRADA_CLIENT_ID || (againstMock ? DEMO_CLIENT_ID : "");
  const clientSecret = env.ENTRADA_CLIENT_SECRET || (againstMock ? DEMO_CLIENT_SECRET : "");
  if (!clientId || !clientSecret) {
    throw new Error("Set ENTRADA_CLIENT_ID and ENTRADA_CLIENT_SECRET (client credentials with scope Shop).");
  }
  const quantity = Number(env.ENTRADA_QUANTITY ?? 2);
  if (!Number.isInteger(quantity) || quantity < 1)
    throw new Error("ENTRADA_QUANTITY must be a positive integer.");
  return {
    baseUrl,
    clientId,
    clientSecret,
    ...(env.ENTRADA_TERP_CLIENT_ID ? { terpClientId: env.ENTRADA_TERP_CLIENT_ID } : {}),
    ...(env.ENTRADA_TERP_CLIENT_SECRET ? { terpClientSecret: env.ENTRADA_TERP_CLIENT_SECRET } : {}),
    locale: env.ENTRADA_LOCALE || "en-GB",
    days: 60,
    ...(env.ENTRADA_VENUE_ID ? { venueId: env.ENTRADA_VENUE_ID } : {}),
    ...(env.ENTRADA_EVENT_SLUG ? { eventSlug: env.ENTRADA_EVENT_SLUG } : {}),
    articleSlug: env.ENTRADA_ARTICLE_SLUG || "adult",
    quantity,
    customer: { firstName: "Anna", lastName: "Muster", email: "anna.muster@example.com" },
    cardNumber: env.ENTRADA_CARD_NUMBER || SUCCEEDING_TEST_CARD,
    shopOrigin: env.ENTRADA_SHOP_ORIGIN || "http://localhost:5173",
    orderReference: env.ENTRADA_ORDER_REFERENCE || `order-${randomUUID()}`,
    mockClock: env.ENTRADA_MOCK_CLOCK ? env.ENTRADA_MOCK_CLOCK === "1" : againstMock,
  };
}
