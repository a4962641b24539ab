import { type BiFeed, biFeed, type ODataPage } from "@entrada/sdk/bi";

/** The subset of `fetch` the assistant uses to reach the BI feed. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** How one MCP request reaches the feed: the caller's own token, forwarded, never stored. */
export interface FeedAccess {
  /** The API base URL; the feed is at `/bi/v1/odata` under it. */
  apiUrl: string;
  /** The caller's bearer token, as it came in. */
  token: string;
  /** Further request headers passed on to the feed (the mock's `X-Mock-Session`, when mounted there). */
  headers?: Record<string, string>;
  fetch?: FetchLike;
}

/**
 * A BI feed client on the SDK for one request: the caller's token as a static bearer token, two attempts per page
 * (a question should fail fast rather than wait out a long retry), the feed's default culture.
 */
export function feedFor(access: FeedAccess): BiFeed {
  const base = access.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
  const extra = access.headers ?? {};
  const fetch: FetchLike = (input, init) => {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    return base(input, { ...init, headers });
  };
  return biFeed({
    baseUrl: access.apiUrl,
    accessToken: access.token,
    fetch,
    maxAttempts: 2,
    maxRetryDelayMs: 2000,
  });
}

/** What answering from the feed may take: a time limit and a cap on the rows gathered. */
export interface Budget {
  /** Epoch ms after which no further page is fetched. */
  deadline: number;
  /** Most rows gathered across pages. */
  maxRows: number;
  /** Rows asked of the feed per page (`Prefer: odata.maxpagesize`). */
  pageSize: number;
}

export interface Gathered<Row> {
  rows: Row[];
  /** Every URL fetched, in order (the first one is the request to re-run). */
  requests: string[];
  /** The next page's URL when the budget ran out before the last page. */
  continuation: string | null;
  /** Why the answer stops early, when it does. */
  note: string | null;
}

/**
 * Follows `@odata.nextLink` from `url` until the last page, the row cap or the deadline, whichever comes first:
 * an answer over a large result is a clear partial answer with a continuation, never an unbounded wait.
 */
export async function gather<Row>(
  feed: BiFeed,
  url: string,
  budget: Budget,
  now: () => number,
): Promise<Gathered<Row>> {
  const rows: Row[] = [];
  const requests: string[] = [];
  let next: string | undefined = url;
  while (next) {
    if (requests.length > 0 && (rows.length >= budget.maxRows || now() >= budget.deadline)) {
      const why =
        rows.length >= budget.maxRows
          ? `the answer stops at ${budget.maxRows.toLocaleString("en-GB")} rows`
          : "the time limit was reached";
      return {
        rows,
        requests,
        continuation: next,
        note: `Partial answer: ${why}. Narrow the question (a filter, coarser groups) or fetch the rest from the continuation URL.`,
      };
    }
    requests.push(next);
    const page: ODataPage<Row> = await feed.page<Row>(next, {
      maxPageSize: Math.min(budget.pageSize, Math.max(1, budget.maxRows - rows.length)),
    });
    rows.push(...page.value);
    next = page.nextLink;
  }
  return { rows, requests, continuation: null, note: null };
}
