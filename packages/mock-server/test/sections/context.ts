/**
 * Hand-built OperationContexts for unit-testing section handlers without the engine: a world, a frozen clock,
 * `problem()` throwing the engine's ProblemError, `emit()` recording events, deterministic ids.
 */

import { pickText } from "../../src/core/culture.ts";
import { JsonText } from "../../src/core/json-text.ts";
import { ProblemError } from "../../src/core/problems.ts";
import { handlerFor, type OperationId, type ResultOf, type SectionModule } from "../../src/core/section.ts";
import type {
  AuthInfo,
  Clock,
  Culture,
  HandlerResult,
  OperationContext,
  SeedData,
  World,
} from "../../src/core/types.ts";

export class TestClock implements Clock {
  constructor(public ms: number = Date.parse("2026-12-05T12:00:00Z")) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(iso: string): void {
    this.ms = Date.parse(iso);
  }
}

export interface Emitted {
  type: string;
  data: Record<string, unknown>;
}

export interface Harness {
  world: World;
  clock: TestClock;
  emitted: Emitted[];
  /**
   * Call a handler of one module by operation id; the result is that operation's success result as the contract
   * types it (status and body), so a test reads `result.body.items` without a cast. Handlers signal problems by
   * throwing (use `problem()` for those); the BI feed's handlers, which answer OData errors themselves, are called
   * by name at run time through the untyped overload below.
   */
  call<K extends OperationId>(module: SectionModule, operationId: K, input?: CallInput): Promise<Success<K>>;
  /** An operation named at run time (the BI feed's generated `listBi…` ids): the untyped handler result. */
  call(module: SectionModule, operationId: string, input?: CallInput): Promise<HandlerResult>;
  /** Call and expect a problem; returns it. */
  problem(module: SectionModule, operationId: string, input?: CallInput): Promise<ProblemError>;
}

/** What a test hands a handler. */
export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string | string[]>;
  body?: unknown;
  headers?: Record<string, string>;
  culture?: Culture;
  url?: string;
  /** Default: a client `test` with scopes Shop and TERP. */
  auth?: AuthInfo | null;
}

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206 | 301 | 302 | 303 | 304 | 307 | 308;

/** A result with a kept serialization (`JsonText`) read back as the plain body it serializes. */
type Plain<R> = R extends { body: infer B } ? Omit<R, "body"> & { body: Exclude<B, JsonText<unknown>> } : R;

/** An operation's success results (2xx and 3xx) with their bodies, from the contract's generated types. */
export type Success<K extends OperationId> = Plain<Extract<ResultOf<K>, { status: SuccessStatus }>>;

let counter = 0;

/** Build a world from modules (each gets its own slice from `initialState`) plus any extra raw slices. */
export function harness(
  modules: SectionModule[],
  options: { seed?: SeedData; clock?: TestClock; slices?: World } = {},
): Harness {
  const clock = options.clock ?? new TestClock();
  const world: World = { ...(options.slices ?? {}) };
  for (const m of modules) world[m.name] = m.initialState(options.seed ?? {}, clock);
  const emitted: Emitted[] = [];
  const call = async (
    module: SectionModule,
    operationId: string,
    input: CallInput = {},
  ): Promise<HandlerResult> => {
    const handler = handlerFor(module, operationId);
    if (!handler) throw new Error(`${module.name} has no handler ${operationId}`);
    const culture = input.culture ?? "de-CH";
    const ctx: OperationContext = {
      operationId,
      method: "POST",
      url: new URL(input.url ?? "http://127.0.0.1:4010/test"),
      params: input.params ?? {},
      query: input.query ?? {},
      headers: input.headers ?? {},
      body: input.body === undefined ? undefined : structuredClone(input.body),
      culture,
      auth:
        input.auth === undefined
          ? { kind: "client", clientId: "test", scopes: ["Shop", "TERP"] }
          : input.auth,
      world,
      clock,
      text: (value) => pickText(value, culture),
      problem(slug, detail, extensions): never {
        throw new ProblemError(slug, detail, extensions);
      },
      emit(type, data) {
        emitted.push({ type, data });
      },
      signedUrl: (path) => `http://127.0.0.1:4010${path}?expires=0&signature=unit-test`,
      id(prefix) {
        counter++;
        return `${prefix}_T${String(counter).padStart(8, "0")}`;
      },
    };
    const result: HandlerResult = await handler(ctx);
    // A kept serialization is read back as the body the client would receive.
    if (result.body instanceof JsonText) return { ...result, body: JSON.parse(result.body.text) };
    // Handlers must return plain JSON (the engine serializes it).
    if (result.body !== undefined && result.raw === undefined) JSON.parse(JSON.stringify(result.body));
    return result;
  };
  return {
    world,
    clock,
    emitted,
    // The handlers are typed by the contract (defineSection): their success results are the operation's.
    call: call as Harness["call"],
    async problem(module, operationId, input) {
      try {
        const result = await call(module, operationId, input);
        throw new Error(`expected a problem, got ${result.status} ${JSON.stringify(result.body)}`);
      } catch (error) {
        if (error instanceof ProblemError) return error;
        throw error;
      }
    },
  };
}

/** The `errors[].pointer`s of a problem a handler threw (validation and unprocessable problems carry them). */
export function pointersOf(problem: ProblemError): string[] {
  const errors: unknown = problem.extensions?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.map((e: unknown) =>
    e !== null && typeof e === "object" && "pointer" in e ? String(e.pointer) : "",
  );
}

/** A minimal shop slice in the shape of the shop module's `ShopState` (venues, events with slots, orders, tickets). */
export function fakeShop(): World {
  const event = {
    id: "evt_CONCERT",
    slug: "winterkonzert",
    venueId: "ven_HALL",
    name: {
      "de-CH": "Winterkonzert",
      "fr-CH": "Concert d'hiver",
      "it-CH": "Concerto d'inverno",
      "en-GB": "Winter Concert",
    },
    startsAt: "2026-12-05T18:00:00Z",
    endsAt: "2026-12-05T22:00:00Z",
    surveyId: "srv_festival",
    slots: [
      { id: "slt_EVENING", startsAt: "2026-12-05T18:00:00Z", endsAt: "2026-12-05T22:00:00Z", capacity: 500 },
    ],
  };
  const other = {
    id: "evt_FAIR",
    slug: "kunstmesse",
    venueId: "ven_EXPO",
    name: { "de-CH": "Kunstmesse", "fr-CH": "Foire d'art", "it-CH": "Fiera d'arte", "en-GB": "Art Fair" },
    startsAt: "2026-12-05T09:00:00Z",
    endsAt: "2026-12-05T20:00:00Z",
    surveyId: null,
    slots: [
      { id: "slt_DAY", startsAt: "2026-12-05T09:00:00Z", endsAt: "2026-12-05T20:00:00Z", capacity: 2000 },
    ],
  };
  const article = {
    "de-CH": "Stehplatz",
    "fr-CH": "Place debout",
    "it-CH": "Posto in piedi",
    "en-GB": "Standing",
  };
  const ticket = (id: string, eventId: string, slotId: string, status = "valid") => ({
    id,
    orderId: "ord_ONE",
    eventId,
    slotId,
    articleId: "art_STAND",
    articleName: article,
    holderName: "Anna Muster",
    quicode: `Q1.${id}.K7P2`,
    ticketUrl: `http://127.0.0.1:4010/assets/v1/tickets/${id}.pdf`,
    status,
  });
  return {
    shop: {
      venues: {
        ven_HALL: {
          id: "ven_HALL",
          name: {
            "de-CH": "Hallenstadion",
            "fr-CH": "Hallenstadion",
            "it-CH": "Hallenstadion",
            "en-GB": "Hallenstadion",
          },
          city: "Zürich",
        },
        ven_EXPO: {
          id: "ven_EXPO",
          name: { "de-CH": "Palexpo", "fr-CH": "Palexpo", "it-CH": "Palexpo", "en-GB": "Palexpo" },
          city: "Genève",
        },
      },
      events: { evt_CONCERT: event, evt_FAIR: other },
      carts: {
        crt_ONE: {
          id: "crt_ONE",
          status: "completed",
          clientId: "test",
          sessionId: null,
          orderId: "ord_ONE",
        },
      },
      orders: {
        ord_ONE: {
          id: "ord_ONE",
          cartId: "crt_ONE",
          customer: { firstName: "Anna", lastName: "Muster", email: "anna@example.ch" },
          items: [
            {
              id: "itm_ONE",
              articleId: "art_STAND",
              slotId: "slt_EVENING",
              eventId: "evt_CONCERT",
              quantity: 3,
              held: 0,
            },
          ],
          currency: "CHF",
          total: 14700,
          createdAt: "2026-12-01T10:00:00Z",
          ticketIds: ["tkt_A", "tkt_B", "tkt_C", "tkt_X"],
          paymentId: "pay_ONE",
          culture: "de-CH",
        },
      },
      articles: {
        art_STAND: {
          id: "art_STAND",
          slug: "stehplatz",
          eventId: "evt_CONCERT",
          name: article,
          price: { CHF: 4900, EUR: 5200 },
        },
      },
      tickets: {
        tkt_A: ticket("tkt_A", "evt_CONCERT", "slt_EVENING"),
        tkt_B: ticket("tkt_B", "evt_CONCERT", "slt_EVENING"),
        tkt_C: ticket("tkt_C", "evt_FAIR", "slt_DAY"),
        tkt_X: ticket("tkt_X", "evt_CONCERT", "slt_EVENING", "cancelled"),
      },
      payments: {
        pay_ONE: {
          id: "pay_ONE",
          cartId: "crt_ONE",
          providerId: "card",
          status: "succeeded",
          orderId: "ord_ONE",
          amount: 14700,
          currency: "CHF",
          createdAt: "2026-12-01T09:59:58Z",
          completedAt: "2026-12-01T10:00:00Z",
        },
      },
    },
  };
}
