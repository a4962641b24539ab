import type { EntradaClient } from "../client.ts";
import { staticAuth } from "../core/auth.ts";
import { configError, expected, nonEmpty, transportSettings } from "../core/config.ts";
import { createTokenRequester } from "../core/oauth.ts";
import { errorFromResponse } from "../core/response.ts";
import { tokenCache } from "../core/token-cache.ts";
import {
  type CallOptions,
  type CallState,
  createTransport,
  TRANSPORT,
  type Transport,
} from "../core/transport.ts";
import type { BiSchema } from "./csdl.ts";
import { ODataError } from "./errors.ts";
import { exportStream, exportTo } from "./export.ts";
import type { BiEntitySet, BiProperty } from "./metadata.ts";
import { pageRows } from "./page-rows.ts";
import type { ODataQuery } from "./query.ts";
import type {
  BiExportOptions,
  BiExportProgress,
  BiRequestOptions,
  ODataPage,
  ODataPageBatches,
  RowOf,
} from "./types.ts";

/** The subset of `fetch` the feed uses. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** An SDK client (`createClient(...)`): the feed then shares its transport, token cache and retry budget. */
export type BiClient = Pick<EntradaClient, "fetch" | "getAccessToken">;
type WithTransport = { readonly [TRANSPORT]?: Transport };

export interface BiFeedOptions {
  /** The API base URL, e.g. `https://api.entrada.example`; the feed lives at `/bi/v1/odata` under it. */
  baseUrl: string | URL;
  /**
   * An SDK client: the feed runs on its transport (token cache, language, retries, retry budget). The usual way:
   * `biFeed({ baseUrl, client })`.
   */
  client?: BiClient;
  /** OAuth client id (scope `Shop`), when the feed should obtain its own tokens. */
  clientId?: string;
  /** OAuth client secret, with `clientId`. */
  clientSecret?: string;
  /** Scopes to request with `clientId` (default `Shop`). */
  scope?: string;
  /** Supplies a bearer token per request (e.g. the SDK client's token helper, which caches and refreshes). */
  getToken?: () => string | Promise<string>;
  /** A fixed bearer token (when you manage tokens yourself). */
  accessToken?: string;
  /** A fetch to use instead of the global one (tests, proxies, a fetch that adds auth itself). */
  fetch?: FetchLike;
  /** Culture for textual values (event names, reasons), sent as `Accept-Language`, e.g. `fr-CH`. */
  locale?: string;
  /** Default page size, sent as `Prefer: odata.maxpagesize`. The server may choose smaller pages. */
  maxPageSize?: number;
  /**
   * Attempts per page (pages are safe GETs), retried on the SDK's retryable outcomes: network errors, timeouts,
   * 408, 425, 429 and 5xx except 501/505. Default 4.
   */
  maxAttempts?: number;
  /**
   * Upper bound for one backoff between attempts (ms), and the longest `Retry-After` (seconds or HTTP-date)
   * waited for; a longer one ends the retries. Default 30 000.
   */
  maxRetryDelayMs?: number;
}

const MAX_RAW = 65_536;
const utf8 = new TextDecoder();

/**
 * The error of a failed page: an OData JSON error as `ODataError`; problem details and OAuth errors as the SDK's
 * own kinds; anything else (HTML from a proxy, an empty 429) as an `ODataError` keeping the raw body.
 */
function errorFrom(response: Response, text: string, url: string, attempts: number) {
  const status = response.status;
  const rawBody = text.slice(0, MAX_RAW);
  const logId = response.headers.get("x-log-id") ?? undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {}
  const error = (parsed as { error?: Record<string, unknown> } | undefined)?.error;
  if (error && typeof error.code === "string" && typeof error.message === "string") {
    return new ODataError({
      status,
      code: error.code,
      message: error.message,
      target: typeof error.target === "string" ? error.target : undefined,
      details: Array.isArray(error.details) ? error.details : undefined,
      rawBody,
      url,
      logId,
    });
  }
  if (status >= 400 && parsed !== undefined) {
    const sdkError = errorFromResponse(response.headers, text, {
      status,
      method: "GET",
      url,
      logId,
      attempts,
    });
    if (sdkError.kind !== "unexpected-body") return sdkError;
  }
  return new ODataError({
    status,
    code: status >= 200 && status < 300 ? "invalid_response" : "http_error",
    message: `BI feed answered ${status} without an OData ${status < 300 ? "payload" : "error body"}`,
    rawBody,
    url,
    logId,
  });
}

/**
 * A client for the BI feed (`/bi/v1/odata`): typed queries, paging by `@odata.nextLink`, retries of failed pages.
 * @example
 * const bi = biFeed({ baseUrl, getToken: () => client.getAccessToken() });
 * for await (const t of bi.rows(odata("Tickets").select("TicketId", "Status"))) console.log(t.TicketId);
 */
export class BiFeed {
  readonly root: URL;
  readonly #options: BiFeedOptions;
  readonly #transport: Transport;
  /** Per-call settings when the feed rides on a client's transport (its own defaults stay the client's). */
  readonly #call: CallOptions;

  constructor(options: BiFeedOptions) {
    const fail = (message: string) => configError("biFeed", message);
    let base: URL | undefined;
    try {
      base = new URL(String(options.baseUrl));
    } catch {}
    if (!base || (base.protocol !== "https:" && base.protocol !== "http:"))
      fail(`Invalid BI baseUrl: ${String(options.baseUrl)} (an absolute http(s) URL is needed)`);
    const shared =
      (options.client as WithTransport | undefined)?.[TRANSPORT] ??
      (options.fetch as WithTransport | undefined)?.[TRANSPORT];
    if (options.client && !shared) fail("`client` must be a client from createClient()");
    const hasCredentials = options.clientId !== undefined || options.clientSecret !== undefined;
    if (!shared && !hasCredentials && !options.getToken && !options.accessToken && !options.fetch)
      fail(
        "needs a client, clientId and clientSecret, getToken or accessToken (or a fetch that authenticates itself)",
      );
    if (hasCredentials && (!nonEmpty(options.clientId) || !nonEmpty(options.clientSecret)))
      fail("needs both clientId and clientSecret");
    const size = options.maxPageSize;
    if (size !== undefined && (!Number.isSafeInteger(size) || size < 1))
      expected("biFeed", "maxPageSize", "a positive integer", size);
    const attempts = options.maxAttempts;
    if (attempts !== undefined && (!Number.isSafeInteger(attempts) || attempts < 1 || attempts > 11))
      expected("biFeed", "maxAttempts", "an integer from 1 to 11", attempts);
    const root = (base as URL).href.replace(/\/+$/, "");
    this.root = new URL(`${root}/bi/v1/odata`);
    this.#options = options;
    const cap = options.maxRetryDelayMs ?? 30_000;
    const retry = {
      maxRetries: (attempts ?? 4) - 1,
      baseDelayMs: Math.min(250, cap),
      maxDelayMs: cap,
      maxRetryAfterMs: cap,
    };
    if (shared) {
      this.#transport = shared;
      this.#call = {
        ...(attempts !== undefined || options.maxRetryDelayMs !== undefined ? { retry } : {}),
        ...(options.locale ? { locale: options.locale as CallOptions["locale"] } : {}),
      };
      return;
    }
    const given = options.fetch;
    const getToken = options.getToken;
    // The feed's own transport, built from the settings every entry point validates alike.
    const transport = createTransport({
      ...transportSettings(
        "biFeed",
        {
          baseUrl: root,
          locale: options.locale as CallOptions["locale"],
          retry,
          fetch: given
            ? (request: Request, init?: { signal?: AbortSignal }) =>
                given(request.url, {
                  method: request.method,
                  headers: request.headers,
                  signal: init?.signal ?? null,
                })
            : undefined,
        },
        "bi",
      ),
      auth: (tokenTransport) => {
        if (hasCredentials)
          return tokenCache({
            credentials: {
              clientId: options.clientId as string,
              clientSecret: options.clientSecret as string,
            },
            requestToken: createTokenRequester(
              tokenTransport,
              `${root}/connect/token`,
              options.scope ?? "Shop",
            ),
          });
        // Asked on every page: such a function (the SDK's `getAccessToken`) caches and refreshes by itself.
        if (getToken)
          return { peek: () => undefined, get: async () => await getToken(), invalidate: () => true };
        if (options.accessToken) return staticAuth(options.accessToken);
      },
    });
    this.#transport = transport;
    this.#call = {};
  }

  /** Fetches one page (with retries). Exposed for custom paging; most callers want `pages()` or `rows()`. */
  async page<Row>(url: string, options: BiRequestOptions = {}): Promise<ODataPage<Row>> {
    const { batches, ...page } = await this.#pageRows<Row>(url, options);
    const value: Row[] = [];
    for (const rows of batches()) for (const row of rows) value.push(row);
    return { value, ...page };
  }

  /** One page, its rows parsed batch by batch when `batches()` is read (see `page-rows.ts`). */
  async #pageRows<Row>(url: string, options: BiRequestOptions): Promise<ODataPageBatches<Row>> {
    const maxPageSize = options.maxPageSize ?? this.#options.maxPageSize;
    const headers: Record<string, string> = {
      accept: "application/json;odata.metadata=minimal",
      "odata-maxversion": "4.01",
    };
    if (maxPageSize) headers.prefer = `odata.maxpagesize=${maxPageSize}`;
    const { response, body, attempts } = await this.#get(url, headers, options);
    const split = response.ok ? pageRows(body) : undefined;
    if (!split) throw errorFrom(response, utf8.decode(body), url, attempts);
    const { envelope: json } = split;
    const next = json["@odata.nextLink"];
    const count = json["@odata.count"];
    return {
      // A batch that is no JSON fails like a page that is none.
      *batches() {
        try {
          yield* split.batches() as Generator<Row[], void, undefined>;
        } catch {
          throw errorFrom(response, utf8.decode(body), url, attempts);
        }
      },
      count: typeof count === "number" ? count : undefined,
      nextLink: typeof next === "string" ? this.#checkNextLink(next, url) : undefined,
      context: typeof json["@odata.context"] === "string" ? (json["@odata.context"] as string) : undefined,
      bytes: body.byteLength,
    };
  }

  /**
   * The datasets and their columns as the feed's `$metadata` describes them (JSON CSDL is asked for; XML CSDL is
   * read too). Parquet exports take their column types from here.
   */
  async schema(options: Pick<BiRequestOptions, "signal"> = {}): Promise<BiSchema> {
    const url = `${this.root.href}/$metadata`;
    const { response, text, attempts } = await this.#getText(
      url,
      { accept: "application/json, application/xml;q=0.9", "odata-maxversion": "4.01" },
      options,
    );
    if (!response.ok) throw errorFrom(response, text, url, attempts);
    // The CSDL reader is loaded on first use (a Parquet export): plain row reads do not carry it.
    const { parseCsdl } = await import("./csdl.ts");
    try {
      return parseCsdl(text);
    } catch (e) {
      throw new ODataError({
        status: response.status,
        code: "invalid_metadata",
        message: `$metadata is no CSDL the SDK can read (${(e as Error).message})`,
        rawBody: text.slice(0, MAX_RAW),
        url,
        logId: response.headers.get("x-log-id") ?? undefined,
      });
    }
  }

  /** One GET on the transport; the body is read within the attempt's timeout and abort (a broken-off body is a network error). */
  async #get(url: string, headers: Record<string, string>, options: Pick<BiRequestOptions, "signal">) {
    const state: CallState = { attempts: 0, operationId: "biFeed", read: (r) => r.arrayBuffer() };
    const response = await this.#transport.send(
      new Request(url, { headers }),
      { ...this.#call, signal: options.signal },
      state,
    );
    return { response, body: new Uint8Array(state.body as ArrayBuffer), attempts: state.attempts };
  }

  async #getText(url: string, headers: Record<string, string>, options: Pick<BiRequestOptions, "signal">) {
    const { body, ...rest } = await this.#get(url, headers, options);
    return { ...rest, text: utf8.decode(body) };
  }

  /**
   * The feed's model as CSDL JSON (`$metadata?$format=json`): the entity container with the datasets, their entity
   * types, properties, facets and `@Org.OData.Core.V1.Description` texts. Same retries and errors as a page.
   * @example const csdl = await bi.metadata(); csdl["Entrada.BI"].Ticket.EventId // {$Type: "Edm.String", …}
   */
  async metadata(options: { signal?: AbortSignal } = {}): Promise<Record<string, unknown>> {
    const url = `${this.root.href}/$metadata?$format=json`;
    const headers = { accept: "application/json", "odata-maxversion": "4.01" };
    const { response, text, attempts } = await this.#getText(url, headers, options);
    let json: Record<string, unknown> | undefined;
    try {
      json = response.ok ? JSON.parse(text) : undefined;
    } catch {}
    if (!json || typeof json.$EntityContainer !== "string") throw errorFrom(response, text, url, attempts);
    return json;
  }

  /** Next links must stay on the feed's origin: the bearer token is never sent anywhere else. */
  #checkNextLink(link: string, current: string): string {
    let next: URL;
    try {
      next = new URL(link, current);
    } catch {
      throw new ODataError({
        status: 0,
        code: "invalid_response",
        message: `Invalid @odata.nextLink: ${link}`,
        url: current,
      });
    }
    if (next.origin !== this.root.origin) {
      throw new ODataError({
        status: 0,
        code: "cross_origin_next_link",
        message: `Refusing @odata.nextLink to another origin (${next.origin}); the feed is on ${this.root.origin}`,
        url: current,
      });
    }
    if (next.href === current) {
      throw new ODataError({
        status: 0,
        code: "next_link_loop",
        message: "@odata.nextLink points to the same page",
        url: current,
      });
    }
    return next.href;
  }

  /** Pages of a query, following `@odata.nextLink` until the last page. */
  async *pages<S extends BiEntitySet, K extends BiProperty<S>>(
    query: ODataQuery<S, K>,
    options: BiRequestOptions = {},
  ): AsyncGenerator<ODataPage<RowOf<ODataQuery<S, K>>>, void, undefined> {
    yield* this.#follow(query.url(this.root).href, (url) => this.page<RowOf<ODataQuery<S, K>>>(url, options));
  }

  /**
   * Pages of a query whose rows are parsed in batches of some dozens as `batches()` is read, so only one batch
   * of row objects is alive at a time: what exports use to stay small in memory.
   */
  async *batchedPages<S extends BiEntitySet, K extends BiProperty<S>>(
    query: ODataQuery<S, K>,
    options: BiRequestOptions = {},
  ): AsyncGenerator<ODataPageBatches<RowOf<ODataQuery<S, K>>>, void, undefined> {
    yield* this.#follow(query.url(this.root).href, (url) =>
      this.#pageRows<RowOf<ODataQuery<S, K>>>(url, options),
    );
  }

  /** The pages `read` gives for `first` and each `@odata.nextLink` after it, until a page has none. */
  async *#follow<Page extends { nextLink: string | undefined }>(
    first: string,
    read: (url: string) => Promise<Page>,
  ): AsyncGenerator<Page, void, undefined> {
    for (let url: string | undefined = first; url !== undefined; ) {
      const page: Page = await read(url);
      yield page;
      url = page.nextLink;
    }
  }

  /** Rows of a query across all pages, fetched one page at a time. */
  async *rows<S extends BiEntitySet, K extends BiProperty<S>>(
    query: ODataQuery<S, K>,
    options: BiRequestOptions = {},
  ): AsyncGenerator<RowOf<ODataQuery<S, K>>, void, undefined> {
    for await (const page of this.pages(query, options)) yield* page.value;
  }

  /** Alias of `rows()`: `for await (const row of bi.query(q))`. */
  query<S extends BiEntitySet, K extends BiProperty<S>>(
    query: ODataQuery<S, K>,
    options: BiRequestOptions = {},
  ): AsyncGenerator<RowOf<ODataQuery<S, K>>, void, undefined> {
    return this.rows(query, options);
  }

  /** The whole result as an NDJSON or CSV byte stream, fetched page by page as it is read. */
  exportStream<S extends BiEntitySet, K extends BiProperty<S>>(
    query: ODataQuery<S, K>,
    options: BiExportOptions,
  ): ReadableStream<Uint8Array<ArrayBuffer>> {
    return exportStream(this, query, options);
  }

  /** Writes the whole result to a `WritableStream`; resolves with the final counts. */
  export<S extends BiEntitySet, K extends BiProperty<S>>(
    query: ODataQuery<S, K>,
    destination: WritableStream<Uint8Array>,
    options: BiExportOptions,
  ): Promise<BiExportProgress> {
    return exportTo(this, query, destination, options);
  }
}

/**
 * Creates a BI feed client, from options or from a fetch that already authenticates (such as the SDK client's
 * `client.fetch`).
 * @example
 * const bi = biFeed({ baseUrl, getToken: () => client.getAccessToken() });
 * const same = biFeed(client.fetch, { baseUrl });
 */
export function biFeed(options: BiFeedOptions): BiFeed;
export function biFeed(fetch: FetchLike, options: Omit<BiFeedOptions, "fetch">): BiFeed;
export function biFeed(first: BiFeedOptions | FetchLike, options?: Omit<BiFeedOptions, "fetch">): BiFeed {
  return new BiFeed(typeof first === "function" ? { ...(options as BiFeedOptions), fetch: first } : first);
}
