import { type ChildProcessByStdio, spawn } from "node:child_process";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { components, webhooks } from "@entrada/openapi/schema";
import { expect } from "vitest";
import type { JsonText } from "../src/core/json-text.ts";
import type { OperationId, ResultOf } from "../src/core/section.ts";
import type { EmittedEvent } from "../src/core/session.ts";
import type { MockResponse, World } from "../src/core/types.ts";
import { type MockServer, type MockServerOptions, startMockServer } from "../src/node/index.ts";
import type { ShopState } from "../src/sections/shop/state.ts";

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206;

/** The JSON body an operation answers on success, from the contract's generated types. */
export type SuccessBody<K extends OperationId> = Exclude<
  Extract<ResultOf<K>, { status: SuccessStatus }>["body"],
  undefined | JsonText<unknown>
>;

/** A problem+json body (RFC 9457) with the extensions the mock adds. */
export type ProblemBody = components["schemas"]["Problem"] & Record<string, unknown>;

/**
 * The body of a successful response of `operationId`, typed by the contract: `await bodyOf(response, "getCart")`
 * is a `Cart`. Fails (with the answer) when the response is not a 2xx.
 */
export async function bodyOf<K extends OperationId>(
  response: Response,
  operationId: K,
): Promise<SuccessBody<K>> {
  if (response.status < 200 || response.status > 299)
    throw new Error(`${operationId}: expected a 2xx, got ${response.status} ${await response.text()}`);
  return response.json();
}

type CheckoutBody = SuccessBody<"checkoutCart">;
/** A checkout that paid at once: the order. */
export type CheckoutCompleted = Extract<CheckoutBody, { order: unknown }>;
/** A checkout waiting for the payment page: where to send the buyer. */
export type CheckoutPending = Exclude<CheckoutBody, { order: unknown }>;

/** The order a checkout answered (fails unless it paid at once). */
export async function paidOrder(response: Response): Promise<CheckoutCompleted["order"]> {
  const body = await bodyOf(response, "checkoutCart");
  if (!("order" in body)) throw new Error(`checkout is pending, not paid: ${JSON.stringify(body)}`);
  return body.order;
}

/** The pending payment a checkout answered (fails unless it waits for the payment page). */
export async function pendingPayment(response: Response): Promise<CheckoutPending> {
  const body = await bodyOf(response, "checkoutCart");
  if ("order" in body) throw new Error(`checkout paid at once: ${JSON.stringify(body)}`);
  return body;
}

/** The mock's state (`/__mock/snapshot`): each section's slice of the world. */
export async function mockSnapshot(api: Api): Promise<{ world: { shop: ShopState } & World }> {
  return (await api.fetch("/__mock/snapshot")).json();
}

/** The body of an engine response (`core.handle`) of `operationId`, typed by the contract (fails unless 2xx). */
export function mockBody<K extends OperationId>(response: MockResponse, operationId: K): SuccessBody<K> {
  if (response.status < 200 || response.status > 299)
    throw new Error(`${operationId}: expected a 2xx, got ${response.status} ${String(response.body)}`);
  return JSON.parse(String(response.body));
}

/** The problem+json body of an engine response. */
export function mockProblem(response: MockResponse): ProblemBody {
  expect(response.headers["content-type"]).toBe("application/problem+json");
  return JSON.parse(String(response.body));
}

/** The problem+json body of an error response. */
export async function problemOf(response: Response): Promise<ProblemBody> {
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  return response.json();
}

/** An OAuth error body (RFC 6749 §5.2) of the token endpoint. */
export type OAuthErrorBody = components["schemas"]["OAuthError"];

/** An OData error body (the BI feed's own error format). */
export type ODataErrorBody = components["schemas"]["ODataError"];

/**
 * The JSON body of an HTTP answer whose shape the test knows by name: an operation's success body, a problem, an
 * OAuth or an OData error. Each reader checks the content type the shape comes with, so a wrong guess fails with the
 * answer instead of a cast that hides it. `text`: a body already read (`response.text()`, a `MockResponse`'s body).
 */
export const read = {
  /** The body of a 2xx answer of `operationId` (`read.body(await grant(), "createToken").access_token`). */
  body: bodyOf,
  problem: problemOf,
  /** A problem+json body already read as text. */
  problemText: (text: string) => shaped<ProblemBody>(JSON.parse(text), "type"),
  oauthError: async (response: Response) => shaped<OAuthErrorBody>(await jsonOf(response), "error"),
  /** An OAuth error body already read as text. */
  oauthErrorText: (text: string) => shaped<OAuthErrorBody>(JSON.parse(text), "error"),
  odataError: async (response: Response) => shaped<ODataErrorBody>(await jsonOf(response), "error.message"),
  /** An OData error body already parsed (a section handler's answer). */
  odataErrorIn: (body: unknown) => shaped<ODataErrorBody>(body, "error.message"),
  /** The rows (`value`) of an OData page already parsed. */
  odataRows: (body: unknown) => shaped<{ value: Record<string, unknown>[] }>(body, "value").value,
  /** An OData page of the BI feed: its rows, the next page's link and the count when asked for. */
  odataPage: async (response: Response) =>
    shaped<{ value: Record<string, unknown>[]; "@odata.nextLink"?: string; "@odata.count"?: number }>(
      await jsonOf(response),
      "value",
    ),
  /** The mock clock (`GET /__mock/clock`) of the session. */
  clock: async (response: Response) =>
    shaped<{ now: string; epochMs: number; frozen: boolean }>(await jsonOf(response), "epochMs"),
};

/** A JSON answer's body (its content type checked). */
async function jsonOf(response: Response): Promise<unknown> {
  expect(response.headers.get("content-type")).toContain("application/json");
  return response.json();
}

/** `body` as the shape `T`, after checking it has the property that marks that shape. */
function shaped<T>(body: unknown, mark: string): T {
  expect(body).toHaveProperty(mark);
  return body as T;
}

/** The `data` of a webhook kind's payload, from the contract's `webhooks` section. */
export type EventData<T extends keyof webhooks> = webhooks[T] extends {
  post: { requestBody?: { content: { "application/json": { data: infer D } } } };
}
  ? D
  : never;

/** An emitted event of kind T with its data typed by the contract. */
export type EmittedOf<T extends keyof webhooks> = Omit<EmittedEvent, "data"> & { data: EventData<T> };

/** The webhook events the mock emitted (`/__mock/events`), optionally of one kind and in one mock session. */
export async function emittedEvents<T extends keyof webhooks>(
  api: Api,
  type: T,
  session?: string,
): Promise<EmittedOf<T>[]>;
export async function emittedEvents(api: Api, type?: undefined, session?: string): Promise<EmittedEvent[]>;
export async function emittedEvents(api: Api, type?: string, session?: string): Promise<EmittedEvent[]> {
  const response = await api.fetch(`/__mock/events${type ? `?type=${encodeURIComponent(type)}` : ""}`, {
    headers: session ? { "x-mock-session": session } : {},
  });
  const body: { items: EmittedEvent[] } = await response.json();
  return body.items;
}

export interface Api {
  url: string;
  mock: MockServer;
  /** fetch relative to the mock, with optional session header. */
  fetch(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** A client-credentials token; with `session`, issued in that mock session (`X-Mock-Session`). */
  token(scope?: string, client?: { id: string; secret: string }, session?: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts the standalone server on a free port with response validation on. */
export async function startApi(options: MockServerOptions & { session?: string } = {}): Promise<Api> {
  const { session, ...rest } = options;
  const mock = await startMockServer({
    port: 0,
    validateResponses: "strict",
    rateLimit: false,
    webhooks: false,
    ...rest,
  });
  const doFetch = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    if (session && !headers.has("x-mock-session")) headers.set("x-mock-session", session);
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    return fetch(`${mock.url}${path}`, { ...init, headers, body, redirect: "manual" });
  };
  return {
    url: mock.url,
    mock,
    fetch: doFetch,
    async token(scope = "Shop", client = { id: "entrada-demo", secret: "demo-secret" }, session?: string) {
      const response = await doFetch("/connect/token", {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa(`${client.id}:${client.secret}`)}`,
          "content-type": "application/x-www-form-urlencoded",
          ...(session === undefined ? {} : { "x-mock-session": session }),
        },
        body: `grant_type=client_credentials&scope=${encodeURIComponent(scope)}`,
      });
      if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
      return (await bodyOf(response, "createToken")).access_token;
    },
    close: () => mock.close(),
  };
}

export function bearer(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...extra };
}

/** A cart as the contract types it. */
export type Cart = SuccessBody<"getCart">;

/** An event with its slots and pricing, as the contract types it. */
export type EventDetail = SuccessBody<"getEvent">;

/** Creates a cart with one item of the first event's first article, customer and provider set. */
export async function readyCart(
  api: Api,
  token: string,
  options: {
    quantity?: number;
    provider?: string;
    eventIndex?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<{ cart: Cart; event: EventDetail }> {
  const h = bearer(token, options.headers);
  const list = await bodyOf(
    await api.fetch("/shop/v1/discovery/events?limit=50", { headers: h }),
    "listEvents",
  );
  const eventId = list.items[options.eventIndex ?? 0]?.id ?? "";
  const event = await bodyOf(
    await api.fetch(`/shop/v1/discovery/events/${eventId}`, { headers: h }),
    "getEvent",
  );
  const cart = await bodyOf(await api.fetch("/shop/v1/cart", { method: "POST", headers: h }), "createCart");
  const article = event.pricingAssortments[0]?.articles[0];
  const slot = event.slots[0];
  let response = await api.fetch(`/shop/v1/cart/${cart.id}/items`, {
    method: "POST",
    headers: h,
    json: { articleId: article?.id, slotId: slot?.id, quantity: options.quantity ?? 1 },
  });
  if (response.status !== 201) throw new Error(`add item: ${response.status} ${await response.text()}`);
  response = await api.fetch(`/shop/v1/cart/${cart.id}/customer`, {
    method: "PUT",
    headers: h,
    json: { firstName: "Anna", lastName: "Meier", email: "anna.meier@example.ch" },
  });
  if (response.status !== 200) throw new Error(`customer: ${response.status} ${await response.text()}`);
  response = await api.fetch(`/shop/v1/cart/${cart.id}/payment-provider`, {
    method: "PUT",
    headers: h,
    json: { paymentProviderId: options.provider ?? "card" },
  });
  if (response.status !== 200) throw new Error(`provider: ${response.status} ${await response.text()}`);
  return { cart: await bodyOf(response, "setCartPaymentProvider"), event };
}

/** Every webhook event the session emitted conforms to its payload schema in the contract's `webhooks`. */
export async function expectEventsConform(api: Api, session?: string): Promise<number> {
  const { resolveLocalized } = await import("../src/sections/webhooks/queue.ts");
  const { pointerTo } = await import("../src/core/document.ts");
  const events = await emittedEvents(api, undefined, session);
  const problems: string[] = [];
  for (const event of events) {
    const pointer = pointerTo(
      "webhooks",
      event.type,
      "post",
      "requestBody",
      "content",
      "application/json",
      "schema",
    );
    const payload = {
      type: event.type,
      timestamp: event.timestamp,
      data: resolveLocalized(event.data, "en-GB"),
    };
    if (!Object.hasOwn(api.mock.core.document.webhooks ?? {}, event.type)) {
      problems.push(`${event.type}: not a webhook kind of the contract`);
      continue;
    }
    for (const error of api.mock.core.validator.response(pointer, payload))
      problems.push(`${event.type}: ${error}`);
  }
  if (problems.length > 0)
    throw new Error(`webhook payloads violate the contract:\n${problems.slice(0, 20).join("\n")}`);
  return events.length;
}

/** The `entrada-mock` binary run from its TypeScript sources: what it printed so far, and its exit code. */
export interface CliRun {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Standard output alone, and standard output and error together as they arrived. */
  state: { stdout: string; output: string };
  exited: Promise<number | null>;
}

/** Runs `entrada-mock <args>` (from `src/node/cli.ts`, as the package's binary does) in this package's folder. */
export function runCli(args: string[]): CliRun {
  const child = spawn(
    process.execPath,
    [
      "--conditions=source",
      "--experimental-transform-types",
      "--disable-warning=ExperimentalWarning",
      "src/node/cli.ts",
      ...args,
    ],
    { cwd: join(import.meta.dirname, ".."), stdio: ["ignore", "pipe", "pipe"] },
  );
  const state = { stdout: "", output: "" };
  child.stdout.on("data", (chunk: Buffer) => {
    state.stdout += chunk.toString();
    state.output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    state.output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, state, exited };
}

/**
 * Starts the CLI's server and waits for its banner, or for the process to end without one (a refused option):
 * the base URL from the banner, undefined then.
 */
export async function startCli(args: string[]): Promise<CliRun & { url: string | undefined }> {
  const run = runCli(args);
  // Events, not polling: usable in a `beforeAll` too, where `expect.poll` is not.
  await new Promise<void>((resolve) => {
    const banner = () => {
      if (/Ctrl-C stops the server/.test(run.state.output)) resolve();
    };
    run.child.stdout.on("data", banner);
    run.child.stderr.on("data", banner);
    void run.exited.then(() => resolve());
  });
  const url = /Entrada mock server {2}(http:\/\/127\.0\.0\.1:\d+)/.exec(run.state.output)?.[1];
  return { ...run, url };
}
