import { sleep } from "../core/signals.ts";
import { ODataError } from "./errors.ts";
import { type BiExportOptions, type BiExportProgress, exportStream, exportTo } from "./export.ts";
import type { BiEntitySet, BiProperty } from "./metadata.ts";
import type { ODataQuery } from "./query.ts";

/** The subset of `fetch` the feed uses. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface BiFeedOptions {
  /** The API base URL, e.g. `https://api.entrada.example`; the feed lives at `/bi/v1/odata` under it. */
  baseUrl: string | URL;
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
  /** Attempts per page for network errors, 408, 429, 500, 502, 503 and 504 (pages are safe GETs). Default 4. */
  maxAttempts?: number;
  /** Upper bound for one wait between attempts (ms), also for `Retry-After`. Default 30 000. */
  maxRetryDelayMs?: number;
}

export interface BiRequestOptions {
  /** Page size for this call (`Prefer: odata.maxpagesize`). */
  maxPageSize?: number;
  signal?: AbortSignal;
}

/** One page of a dataset. */
export interface ODataPage<Row> {
  value: Row[];
  /** `@odata.count`, present when the query asked for `count()` (on the first page at least). */
  count: number | undefined;
  /** Absolute URL of the next page, if any. */
  nextLink: string | undefined;
  /** `@odata.context`. */
  context: string | undefined;
  /** Size of the page's JSON in bytes. */
  bytes: number;
}

/** The row type a query yields. */
export type RowOf<Q> = Q extends ODataQuery<infer _S, infer _K> ? NonNullable<Q["__row"]> : never;

const MAX_RAW = 65_536;

// 501 (an unsupported query option) and other 5xx that will not change on their own are not retried.
const retryable = (status: number) => [408, 429, 500, 502, 503, 504].includes(status);
const backoff = (attempt: number) => 250 * 2 ** attempt * (0.5 + Math.random() / 2);

/** Reads an OData JSON error, or describes a non-OData body, keeping the raw text. */
function errorFrom(status: number, text: string, url: string): ODataError {
  const rawBody = text.slice(0, MAX_RAW);
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
    });
  }
  // Failures before the OData layer (auth, rate limits) may come as RFC 9457 problem+json.
  const problem = parsed as { type?: unknown; title?: unknown; detail?: unknown } | undefined;
  if (status >= 400 && typeof problem?.type === "string" && typeof problem.title === "string") {
    return new ODataError({
      status,
      code: problem.type.slice(problem.type.lastIndexOf("/") + 1) || "http_error",
      message: typeof problem.detail === "string" ? problem.detail : problem.title,
      rawBody,
      url,
    });
  }
  return new ODataError({
    status,
    code: status >= 200 && status < 300 ? "invalid_response" : "http_error",
    message: `BI feed answered ${status} without an OData ${status < 300 ? "payload" : "error body"}`,
    rawBody,
    url,
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
  readonly #fetch: FetchLike;

  constructor(options: BiFeedOptions) {
    let base: URL;
    try {
      base = new URL(String(options.baseUrl));
    } catch {
      throw new TypeError(`Invalid BI baseUrl: ${String(options.baseUrl)}`);
    }
    if (base.protocol !== "https:" && base.protocol !== "http:")
      throw new TypeError("BI baseUrl must be http(s)");
    if (!options.getToken && !options.accessToken && !options.fetch) {
      throw new TypeError("biFeed needs getToken or accessToken (or a fetch that authenticates itself)");
    }
    const size = options.maxPageSize;
    if (size !== undefined && (!Number.isSafeInteger(size) || size < 1)) {
      throw new TypeError("maxPageSize must be a positive integer");
    }
    this.root = new URL(`${base.href.replace(/\/+$/, "")}/bi/v1/odata`);
    this.#options = options;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** Fetches one page (with retries). Exposed for custom paging; most callers want `pages()` or `rows()`. */
  async page<Row>(url: string, options: BiRequestOptions = {}): Promise<ODataPage<Row>> {
    const { signal } = options;
    const maxPageSize = options.maxPageSize ?? this.#options.maxPageSize;
    const attempts = this.#options.maxAttempts ?? 4;
    const cap = this.#options.maxRetryDelayMs ?? 30_000;
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      const headers: Record<string, string> = {
        accept: "application/json;odata.metadata=minimal",
        "odata-maxversion": "4.01",
      };
      if (maxPageSize) headers.prefer = `odata.maxpagesize=${maxPageSize}`;
      if (this.#options.locale) headers["accept-language"] = this.#options.locale;
      const token = this.#options.getToken ? await this.#options.getToken() : this.#options.accessToken;
      if (token) headers.authorization = `Bearer ${token}`;
      let response: Response;
      let text: string;
      try {
        response = await this.#fetch(url, { method: "GET", headers, signal: signal ?? null });
        text = await response.text();
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        if (attempt >= attempts) {
          throw new ODataError({
            status: 0,
            code: "network_error",
            message: `BI feed unreachable: ${String(cause)}`,
            url,
            cause,
          });
        }
        await sleep(Math.min(cap, backoff(attempt)), signal);
        continue;
      }
      if (response.ok) {
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(text);
        } catch {}
        if (!json || !Array.isArray(json.value)) throw errorFrom(response.status, text, url);
        const next = json["@odata.nextLink"];
        const count = json["@odata.count"];
        return {
          value: json.value as Row[],
          count: typeof count === "number" ? count : undefined,
          nextLink: typeof next === "string" ? this.#checkNextLink(next, url) : undefined,
          context:
            typeof json["@odata.context"] === "string" ? (json["@odata.context"] as string) : undefined,
          bytes: new TextEncoder().encode(text).length,
        };
      }
      if (!retryable(response.status) || attempt >= attempts) throw errorFrom(response.status, text, url);
      const header = response.headers.get("retry-after");
      const retryAfter = header === null ? Number.NaN : Number(header);
      const delay = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : backoff(attempt);
      await sleep(Math.min(cap, delay), signal);
    }
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
    let url: string | undefined = query.url(this.root).href;
    while (url) {
      const page: ODataPage<RowOf<ODataQuery<S, K>>> = await this.page(url, options);
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
