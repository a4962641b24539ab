/** An injected fetch that plays the API: token endpoint plus a route function per test. */

export interface Recorded {
  method: string;
  url: string;
  path: string;
  headers: Headers;
  body: string;
  signal: AbortSignal;
}

export type Route = (request: Recorded, index: number) => Response | Promise<Response>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function problem(
  status: number,
  slug: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return new Response(
    JSON.stringify({
      type: `https://docs.entrada.dev/problems/${slug}`,
      title: slug,
      status,
      detail: `detail of ${slug}`,
      ...extra,
    }),
    { status, headers: { "content-type": "application/problem+json", ...headers } },
  );
}

export interface FakeApi {
  fetch: (request: Request, init?: { signal?: AbortSignal }) => Promise<Response>;
  calls: Recorded[];
  tokenRequests: Recorded[];
  /** Replace the token endpoint's behaviour. */
  token: (request: Recorded, index: number) => Response | Promise<Response>;
}

export function fakeApi(route: Route = () => json(200, { items: [] })): FakeApi {
  let issued = 0;
  const api: FakeApi = {
    calls: [],
    tokenRequests: [],
    token: () =>
      json(200, { access_token: `tok_${++issued}`, token_type: "Bearer", expires_in: 3600, scope: "Shop" }),
    fetch: async (request, init) => {
      const recorded: Recorded = {
        method: request.method,
        url: request.url,
        path: new URL(request.url).pathname,
        headers: new Headers(request.headers),
        body: await request.text(),
        // As fetch does: the init's signal wins over the request's.
        signal: init?.signal ?? request.signal,
      };
      if (recorded.path === "/connect/token") {
        api.tokenRequests.push(recorded);
        return api.token(recorded, api.tokenRequests.length - 1);
      }
      api.calls.push(recorded);
      return route(recorded, api.calls.length - 1);
    },
  };
  return api;
}

export const BASE = "https://api.test.entrada.dev";
export const CREDENTIALS = { baseUrl: BASE, clientId: "client_demo", clientSecret: "s3cret" } as const;

/** A promise with its resolvers exposed. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Resolves when the signal aborts, rejecting like fetch does. */
export function hangUntilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/**
 * One turn of the event loop: every promise chain that needs no I/O or timer (a fake fetch, the SDK's own steps)
 * has run to its next real wait when this resolves. Not a sleep: no time passes on any clock.
 */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
