import { describe, expectTypeOf, it } from "vitest";
import {
  type AbortedError,
  type Article,
  type Cart,
  type CheckoutCartResult,
  type CheckoutCompleted,
  type CheckoutPending,
  type Culture,
  type components,
  type createClient,
  customLocale,
  type EntradaProblemError,
  type EntradaResult,
  type Event,
  type EventListItem,
  type EventSummary,
  type InvalidArgumentError,
  type Locale,
  type NetworkError,
  type OAuthError,
  type OperationProblems,
  type PricingAssortment,
  paginate,
  type RequestError,
  type ResponseMeta,
  type Session,
  type Slot,
  type TimeoutError,
  type TokenRequest,
  type UnexpectedBodyError,
  type WebhookSubscriptionWithSecret,
} from "../../src/index.ts";
import { rawClient } from "../../src/raw.ts";

declare const client: ReturnType<typeof createClient>;
declare const createClientFn: typeof createClient;
type Schemas = components["schemas"];

describe("section methods", () => {
  it("types data from the contract's 2xx responses", async () => {
    const result = await client.shop.getEvent({ params: { path: { eventId: "evt_1" } } });
    if (result.error) {
      expectTypeOf(result.error).toEqualTypeOf<RequestError<OperationProblems["getEvent"]>>();
      expectTypeOf(result.data).toEqualTypeOf<undefined>();
    } else {
      expectTypeOf(result.data).toEqualTypeOf<Event>();
      expectTypeOf(result.response).toEqualTypeOf<Response>();
    }
    expectTypeOf(result.meta).toEqualTypeOf<ResponseMeta>();
  });

  it("unions several success responses (checkout: 200 completed, 202 pending)", async () => {
    const { data } = await client.shop.checkoutCart.orThrow({ params: { path: { id: "crt_1" } }, body: {} });
    expectTypeOf(data).toEqualTypeOf<CheckoutCartResult>();
    expectTypeOf<CheckoutCartResult>().toEqualTypeOf<CheckoutCompleted | CheckoutPending>();
    // Named types keep hovers short, and stay the contract's structure.
    expectTypeOf<CheckoutCompleted>().toExtend<Schemas["CheckoutCompleted"]>();
    expectTypeOf<Schemas["CheckoutCompleted"]>().toExtend<CheckoutCompleted>();
  });

  it("lists only the problem slugs an operation documents", async () => {
    const checkout = await client.shop.checkoutCart({ params: { path: { id: "crt_1" } }, body: {} });
    if (checkout.error?.kind === "problem") {
      const slug = checkout.error.slug;
      expectTypeOf(slug).toEqualTypeOf<OperationProblems["checkoutCart"]>();
      expectTypeOf<"payment-declined">().toExtend<typeof slug>();
      expectTypeOf<"sold-out">().toExtend<typeof slug>();
    }
    const venues = await client.shop.listVenues();
    if (venues.error?.kind === "problem") {
      const slug = venues.error.slug;
      expectTypeOf<"payment-declined">().not.toExtend<typeof slug>();
      expectTypeOf<"sold-out">().not.toExtend<typeof slug>();
      // @ts-expect-error — listVenues cannot answer sold-out
      venues.error.is("sold-out");
    }
  });

  it("types locale as the contract's cultures, with customLocale() as the escape hatch", () => {
    expectTypeOf<Culture>().toEqualTypeOf<"de-CH" | "fr-CH" | "it-CH" | "en-GB">();
    client.shop.listVenues({ locale: "it-CH" });
    // @ts-expect-error — not a culture the API serves: use customLocale("de-AT")
    client.shop.listVenues({ locale: "de-AT" });
    // @ts-expect-error — not a culture tag at all
    client.shop.listVenues({ locale: "german" });
    client.shop.listVenues({ locale: customLocale("de-AT") });
    expectTypeOf(customLocale).returns.toExtend<Locale>();
    // @ts-expect-error — the client-wide default is checked the same way
    createClientFn({ baseUrl: "https://api.example", sessionToken: "t", locale: "de_CH" });
  });

  it("takes client-wide and per-call headers", () => {
    createClientFn({ baseUrl: "https://api.example", sessionToken: "t", headers: { "x-gateway-key": "k" } });
    client.shop.listVenues({ headers: { "x-trace-id": "t1" } });
    // @ts-expect-error — header values are strings
    client.shop.listVenues({ headers: { "x-retries": 3 } });
  });

  it("requires path parameters and bodies where the contract does", () => {
    // @ts-expect-error — eventId is required
    client.shop.getEvent();
    // @ts-expect-error — wrong path parameter name
    client.shop.getEvent({ params: { path: { id: "evt_1" } } });
    // @ts-expect-error — the body of addCartItem is required
    client.shop.addCartItem({ params: { path: { id: "crt_1" } } });
    // @ts-expect-error — quantity must be a number
    client.shop.updateCartItem({ params: { path: { id: "c", itemId: "i" } }, body: { quantity: "2" } });
    // Optional init may be omitted entirely.
    client.shop.listVenues();
    client.shop.createCart();
  });

  it("types query parameters", () => {
    client.shop.listEvents({ params: { query: { venueId: "ven_1", limit: 10, dateFrom: "2026-12-01" } } });
    // @ts-expect-error — unknown query parameter
    client.shop.listEvents({ params: { query: { venue: "ven_1" } } });
  });

  it("accepts the client's per-call controls", () => {
    client.shop.createCart({
      body: { currency: "CHF" },
      idempotencyKey: "order-1",
      locale: "fr-CH",
      timeoutMs: 5_000,
      totalTimeoutMs: 20_000,
      retry: { maxRetries: 5 },
      signal: AbortSignal.timeout(1_000),
    });
    client.shop.createCart({ body: {}, idempotencyKey: null, retry: false });
  });

  it("orThrow returns non-optional data", async () => {
    const { data } = await client.shop.getCart.orThrow({ params: { path: { id: "crt_1" } } });
    expectTypeOf(data).toEqualTypeOf<Cart>();
  });

  it("exposes operations of every section, the token endpoint included", () => {
    expectTypeOf(client.sessions.createSession).toBeFunction();
    expectTypeOf(client.token.createToken).toBeFunction();
    // @ts-expect-error — not an operation of the shop section
    client.shop.createSession;
  });
});

describe("media types", () => {
  it("types binary bodies as Blob and JSON-or-XML bodies as a union with string", async () => {
    const pdf = await client.assets.getTicketPdf.orThrow({ params: { path: { ticketId: "tkt_1" } } });
    expectTypeOf(pdf.data).toEqualTypeOf<Blob>();
    const metadata = await client.bi.getBiMetadata.orThrow();
    expectTypeOf<string>().toExtend<typeof metadata.data>();
    expectTypeOf<Blob>().not.toExtend<typeof metadata.data>();
  });
});

describe("errors", () => {
  it("narrows the error union by kind", async () => {
    const { error } = await client.shop.listVenues();
    if (!error) return;
    switch (error.kind) {
      case "problem":
        expectTypeOf(error).toEqualTypeOf<EntradaProblemError<OperationProblems["listVenues"]>>();
        if (error.is("rate-limited")) expectTypeOf(error.slug).toEqualTypeOf<"rate-limited">();
        expectTypeOf(error.status).toEqualTypeOf<number>();
        break;
      case "oauth":
        expectTypeOf(error).toEqualTypeOf<OAuthError>();
        break;
      case "network":
        expectTypeOf(error).toEqualTypeOf<NetworkError>();
        break;
      case "timeout":
        expectTypeOf(error).toEqualTypeOf<TimeoutError>();
        break;
      case "aborted":
        expectTypeOf(error).toEqualTypeOf<AbortedError>();
        break;
      case "invalid-argument":
        expectTypeOf(error).toEqualTypeOf<InvalidArgumentError>();
        expectTypeOf(error.argument).toEqualTypeOf<string>();
        break;
      case "unexpected-body":
        expectTypeOf(error).toEqualTypeOf<UnexpectedBodyError>();
        expectTypeOf(error.body).toEqualTypeOf<string>();
        break;
    }
    expectTypeOf(error.logId).toEqualTypeOf<string | undefined>();
    expectTypeOf(error.idempotencyKey).toEqualTypeOf<string | undefined>();
  });
});

describe("pagination and sessions", () => {
  it("infers the item type of a list operation", async () => {
    for await (const event of paginate(client.shop.listEvents, { params: { query: { venueId: "v" } } })) {
      expectTypeOf(event).toEqualTypeOf<Schemas["EventListItem"]>();
      expectTypeOf(event).toExtend<EventListItem>();
    }
    const all = await paginate(client.shop.listEvents).all({ max: 50 });
    const byQuery = await paginate(client.shop.listEvents, { query: { venueId: "v", limit: 10 } }).all();
    expectTypeOf(byQuery).toEqualTypeOf<Schemas["EventListItem"][]>();
    // @ts-expect-error — not a query parameter of listEvents
    paginate(client.shop.listEvents, { query: { venue: "v" } });
    expectTypeOf(all).toEqualTypeOf<Schemas["EventListItem"][]>();
  });

  it("types the catalogue's include and the parts it embeds (issue 19)", async () => {
    const { data } = await client.shop.listEvents.orThrow({
      params: { query: { include: ["slots", "assortments"] } },
    });
    const item = data.items[0] as Schemas["EventListItem"];
    // A summary, plus the parts `include` asked for: present only then, so optional.
    expectTypeOf(item).toExtend<EventSummary>();
    expectTypeOf(item.slots).toEqualTypeOf<Slot[] | undefined>();
    expectTypeOf(item.pricingAssortments).toEqualTypeOf<PricingAssortment[] | undefined>();
    expectTypeOf<
      NonNullable<EventListItem["pricingAssortments"]>[number]["articles"][number]
    >().toEqualTypeOf<Article>();
    // The detail's own fields stay on getEvent.
    expectTypeOf<EventListItem>().not.toHaveProperty("description");
    expectTypeOf<NonNullable<NonNullable<Parameters<typeof client.shop.listEvents>[0]>["params"]>["query"]>()
      .exclude<undefined>()
      .toHaveProperty("include")
      .toEqualTypeOf<("slots" | "assortments")[] | undefined>();
    // @ts-expect-error — not an include value
    client.shop.listEvents({ params: { query: { include: ["prices"] } } });
    // @ts-expect-error — a list, not a comma-joined string (the SDK joins it)
    client.shop.listEvents({ params: { query: { include: "slots,assortments" } } });
  });

  it("creates session tokens with a typed body", async () => {
    const result = await client.sessions.create({ allowedOrigins: ["https://shop.example"] });
    expectTypeOf(result).toEqualTypeOf<EntradaResult<Session, OperationProblems["createSession"]>>();
    // @ts-expect-error — allowedOrigins is a list
    client.sessions.create({ allowedOrigins: "https://shop.example" });
  });

  it("renews sessions: create({ sessionId }), renew(sessionId, { allowedOrigins }), no sessionId in renew's body", async () => {
    expectTypeOf(await client.sessions.create()).toEqualTypeOf<
      EntradaResult<Session, OperationProblems["createSession"]>
    >();
    const renewed = await client.sessions.renew.orThrow("ses_1", {
      allowedOrigins: ["https://shop.example"],
    });
    expectTypeOf(renewed.data).toEqualTypeOf<Session>();
    expectTypeOf(client.sessions.create)
      .parameter(0)
      .toEqualTypeOf<Schemas["CreateSessionRequest"] | undefined>();
    // @ts-expect-error — the session to renew is the first argument
    client.sessions.renew("ses_1", { sessionId: "ses_2" });
  });

  it("takes a session-token function of { rejectedToken, sessionId } returning a token or a grant", () => {
    createClientFn({
      baseUrl: "https://api.example",
      sessionToken: async (request: TokenRequest) => {
        expectTypeOf(request).toEqualTypeOf<TokenRequest>();
        expectTypeOf(request.sessionId).toEqualTypeOf<string | undefined>();
        return { sessionToken: "t", sessionId: request.sessionId };
      },
    });
    createClientFn({ baseUrl: "https://api.example", sessionToken: () => "t" });
    // @ts-expect-error — a grant without a token
    createClientFn({ baseUrl: "https://api.example", sessionToken: async () => ({ sessionId: "ses_1" }) });
    // @ts-expect-error — access-token functions return the token itself
    createClientFn({ baseUrl: "https://api.example", accessToken: async () => ({ sessionToken: "t" }) });
  });
});

describe("request bodies with server defaults", () => {
  it("leave defaulted fields optional (webhook subscriptions: description, enabled, culture)", async () => {
    const result = await client.webhooks.createWebhookSubscription({
      body: { url: "https://hooks.example.com/entrada", eventTypes: ["cart.completed"] },
    });
    expectTypeOf(result).toEqualTypeOf<
      EntradaResult<WebhookSubscriptionWithSecret, OperationProblems["createWebhookSubscription"]>
    >();
    type Body = Parameters<typeof client.webhooks.createWebhookSubscription>[0]["body"];
    expectTypeOf<Body["enabled"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Body["culture"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Body["description"]>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error — url and eventTypes have no default and stay required
    client.webhooks.createWebhookSubscription({ body: { url: "https://hooks.example.com/entrada" } });
  });

  it("keep fields the server always sends required in responses", async () => {
    const { data } = await client.webhooks.createWebhookSubscription.orThrow({
      body: { url: "https://hooks.example.com/entrada", eventTypes: ["cart.completed"] },
    });
    expectTypeOf(data.enabled).toEqualTypeOf<boolean>();
    expectTypeOf(data.description).toEqualTypeOf<string>();
  });
});

describe("raw client", () => {
  it("is the openapi-fetch client over the contract's paths", async () => {
    const { data } = await rawClient(client).GET("/shop/v1/cart/{id}", { params: { path: { id: "crt_1" } } });
    expectTypeOf(data).toEqualTypeOf<Schemas["Cart"] | undefined>();
  });
});
