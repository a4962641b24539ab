/**
 * Section modules typed from the contract. `defineSection` takes handlers keyed by operationId; each handler's
 * context (path parameters, query parameter names, request body) and its result (every documented status with that
 * status's body, or raw bytes of a documented media type) come from the generated `operations` of
 * `@entrada/openapi/schema`, so a handler that drifts from the contract fails `tsc`, not a test at run time.
 */
import type { operations } from "@entrada/openapi/schema";
import type { JsonText } from "./json-text.ts";
import type {
  Clock,
  ControlRoute,
  ErrorFormat,
  HandlerResult,
  OperationContext,
  SeedData,
  World,
} from "./types.ts";

/** Every operationId of the contract. */
export type OperationId = keyof operations;

type Operation<K extends OperationId> = operations[K];
type Parameters_<K extends OperationId> = Operation<K>["parameters"];
type Present<T> = [NonNullable<T>] extends [never] ? Record<string, never> : NonNullable<T>;

/** Path parameters of an operation, decoded (always strings on the wire; the contract's names). */
export type PathParams<K extends OperationId> = {
  readonly [P in keyof Present<Parameters_<K>["path"]>]: string;
};

/**
 * Query parameters as received: the contract's names (a misspelt one fails to compile), values as the engine read
 * them (already validated against the contract's schema; repeated ones as arrays).
 */
export type QueryParams<K extends OperationId> = [NonNullable<Parameters_<K>["query"]>] extends [never]
  ? Readonly<Record<string, never>>
  : { readonly [P in keyof NonNullable<Parameters_<K>["query"]>]?: string | string[] };

type BodyContent<K extends OperationId> =
  Operation<K> extends { requestBody?: infer B }
    ? NonNullable<B> extends { content: infer C }
      ? C[keyof C]
      : never
    : never;

/** The request body after parsing and schema validation (undefined when the contract makes it optional). */
export type RequestBody<K extends OperationId> = [BodyContent<K>] extends [never]
  ? undefined
  : Operation<K> extends { requestBody: unknown }
    ? BodyContent<K>
    : BodyContent<K> | undefined;

type Responses<K extends OperationId> = Operation<K>["responses"];
type JsonMedia = "application/json" | "application/problem+json";

/** Extra response headers (the engine adds X-Log-Id, Content-Language, Vary and the rate headers). */
type ExtraHeaders = Record<string, string>;

type Bodyless<S> = {
  status: S;
  headers?: ExtraHeaders;
  body?: undefined;
  raw?: undefined;
  contentType?: undefined;
};

type ResultForStatus<S, R> = R extends { content: infer C }
  ? {
      [M in keyof C]: M extends JsonMedia
        ? { status: S; body: C[M] | JsonText<C[M]>; headers?: ExtraHeaders; contentType?: M; raw?: undefined }
        : { status: S; raw: string | Uint8Array; contentType: M; headers?: ExtraHeaders; body?: undefined };
    }[keyof C]
  : Bodyless<S>;

/** What a handler of operation K may answer: one of its documented statuses with that status's body. */
export type ResultOf<K extends OperationId> = {
  [S in keyof Responses<K>]: ResultForStatus<S, Responses<K>[S]>;
}[keyof Responses<K>];

/** The context a handler of operation K receives. */
export interface ContextOf<K extends OperationId>
  extends Omit<OperationContext, "operationId" | "params" | "query" | "body"> {
  operationId: K;
  params: PathParams<K>;
  query: QueryParams<K>;
  body: RequestBody<K>;
}

/** A handler of operation K. */
export type Handler<K extends OperationId> = (ctx: ContextOf<K>) => ResultOf<K> | Promise<ResultOf<K>>;

/** Handlers of a section, keyed by operationId (an unknown id fails to compile). */
export type Handlers = { readonly [K in OperationId]?: Handler<K> };

/** A section as the engine binds it. */
export interface Section<S = unknown> {
  /** Key of this module's slice in the world. */
  readonly name: string;
  /** Fresh state from the seed (the default seed or a file given with `--seed`). */
  initialState(seed: SeedData, clock: Clock): S;
  readonly handlers: Handlers;
  /** Optional mock-only routes under `/__mock`. */
  readonly controls?: readonly ControlRoute[];
  /** Optional: the engine's own errors below `pathPrefix` rendered in this section's format (BI: OData errors). */
  readonly errorFormat?: ErrorFormat;
  /** This section's slice of a world (created by `initialState`). */
  slice(world: World): S;
  /** How many records (carts, deliveries, …) the slice retains, in O(1): the engine's memory accounting. */
  retained?(slice: unknown): number;
}

/** What `defineSection` takes. */
export interface SectionDefinition<S> {
  name: string;
  initialState(seed: SeedData, clock: Clock): S;
  handlers: Handlers;
  controls?: readonly ControlRoute[];
  errorFormat?: ErrorFormat;
  /** How many records the slice retains, in O(1) (see `Section.retained`). */
  retained?(slice: S): number;
}

/** Declares a section whose handlers are checked against the contract. */
export function defineSection<S>(definition: SectionDefinition<S>): Section<S> {
  const { name, retained, ...rest } = definition;
  // The engine builds every world from `initialState`, so a section's slice holds an S (the one cast, here).
  const slice = (world: World): S => world[name] as S;
  return {
    ...rest,
    name,
    slice,
    ...(retained ? { retained: (value: unknown) => (value === undefined ? 0 : retained(value as S)) } : {}),
  };
}

/**
 * A handler whose payload is shaped at run time and cannot be typed statically (the BI feed's OData rows, whose
 * columns `$select` picks). The one sanctioned way to register an untyped handler: it stays visible here, and
 * `--validate-responses` (and the contract fuzz test) check what it answers.
 */
export function dynamicHandler<K extends OperationId>(handler: AnyHandler): Handler<K> {
  return handler as unknown as Handler<K>;
}

/** The erased handler the engine calls once the pipeline has checked the request against operation K. */
export type AnyHandler = (ctx: OperationContext) => HandlerResult | Promise<HandlerResult>;

/**
 * Looks up a section's handler for an operationId taken from the document. The pipeline validated path, query and
 * body against that same operation before it calls the handler, which is what makes the erased call sound.
 */
export function handlerFor(section: Section, operationId: string): AnyHandler | undefined {
  const handler: unknown = section.handlers[operationId as OperationId];
  return handler as AnyHandler | undefined;
}

/** A section module as the engine holds it (any section of the contract). */
export type SectionModule<S = unknown> = Section<S>;
