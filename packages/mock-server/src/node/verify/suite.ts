/**
 * The conformance run behind `entrada-mock verify`: an SDK client whose `fetch` hands every exchange to the
 * contract checker (../../proxy/contract.ts) and the replay tracker, so every request the suite sends — the
 * SDK's own token requests included — is checked, and each difference is charged to the case that was running.
 * The cases are the per-operation probes (probes.ts) and the documented journeys (journeys.ts).
 */
import { createClient, type EntradaClient } from "@entrada/sdk";
import { ajvSchemaCompiler } from "../../compiler/ajv.ts";
import { ContractChecker, type Violation } from "../../core/contract.ts";
import type { OpenApiDocument } from "../../core/document.ts";
import { entradaDocument } from "../../index.ts";
import { ReplayTracker } from "../../proxy/replay.ts";

export interface Difference {
  operationId: string;
  /**
   * The contract checker's rules, and the suite's own: `journey` and `language` (a journey step), `unknown-id` (an
   * unknown id not answered with a 404 problem), `auth` (a negative authentication probe), `network` (no answer:
   * a timeout, a closed connection).
   */
  rule: Violation["rule"] | "journey" | "language" | "unknown-id" | "auth" | "network";
  pointer: string;
  message: string;
  /** How often the case met it (a difference is listed once per case). */
  count?: number;
}

export interface CaseResult {
  /** `operations`: one probe per operation; `authentication`: its negative authentication probes. */
  suite: "operations" | "authentication" | "journeys";
  name: string;
  differences: Difference[];
  /** Why the case did not run (e.g. a write under `--read-only`). */
  skipped?: string;
  requests: number;
  ms: number;
}

export interface VerifyOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Send no write (for production): write operations and write journeys are skipped. */
  readOnly?: boolean;
  /** Where the purchase journey subscribes its webhook (default: a receiver the verifier runs on loopback). */
  webhookUrl?: string;
  /** A token of this client that has expired (kept from an earlier run), for the expired-token probes. */
  expiredToken?: string;
  /** Report progress (one line per finished case). */
  onCase?: (result: CaseResult) => void;
  fetch?: typeof globalThis.fetch;
  /** The document answers are checked against (default: the Entrada contract); `--openapi` on the command line. */
  document?: OpenApiDocument;
  /** How long one request may take, body included (default 10 000 ms): a hanging server fails, never stalls. */
  timeoutMs?: number;
}

/**
 * No answer to a request: a timeout, a refused or closed connection. After `GIVE_UP_AFTER` in a row the run stops
 * sending (every later request fails at once with the last reason), so a dead server ends the run in seconds.
 */
export class Unanswered extends Error {
  override readonly name = "Unanswered";
}
const GIVE_UP_AFTER = 3;

/** What a probe or a journey step works with. */
export interface VerifyContext {
  client: EntradaClient;
  baseUrl: string;
  checker: ContractChecker;
  readOnly: boolean;
  webhookUrl: string | undefined;
  /** Ids found along the way (events, gates, orders, …) for the probes' paths. */
  ids: Map<string, string>;
  /** The client's credentials (the authentication probes ask for tokens of one scope each). */
  credentials: { clientId: string; clientSecret: string };
  /** An expired token the integrator gave (`--expired-token`), if any. */
  expiredToken: string | undefined;
  /** A request as given (no token, language or key added by the SDK), checked like every other. */
  send(url: string, init?: RequestInit): Promise<Response>;
  /** A difference the case found itself (a journey step that did not do what the contract says). */
  fail(difference: Difference): void;
}

export class Run {
  readonly checker: ContractChecker;
  private readonly replay = new ReplayTracker(1_000);
  private current: CaseResult | null = null;
  readonly results: CaseResult[] = [];
  readonly context: VerifyContext;
  private readonly basePath: string;
  private readonly timeoutMs: number;
  /** Requests in a row that got no answer, and why the last one did not. */
  private unanswered = 0;
  private lastFailure = "";

  constructor(private readonly options: VerifyOptions) {
    const document = options.document ?? entradaDocument;
    this.checker = new ContractChecker(document, ajvSchemaCompiler(document));
    this.basePath = new URL(options.baseUrl).pathname.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? 10_000;
    const client = createClient({
      baseUrl: options.baseUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scope: ["Shop", "TERP"],
      // A conformance run reports what the server answers: one attempt per call.
      retry: false,
      // The run's own timeout (in `exchange`) fires first, so a hang is counted as no answer.
      timeoutMs: this.timeoutMs + 1_000,
      fetch: (input: RequestInfo | URL, init?: RequestInit) => this.observedFetch(input, init),
    });
    this.context = {
      client,
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      checker: this.checker,
      readOnly: options.readOnly === true,
      webhookUrl: options.webhookUrl,
      ids: new Map(),
      credentials: { clientId: options.clientId, clientSecret: options.clientSecret },
      expiredToken: options.expiredToken,
      send: (url, init) => this.observedFetch(url, init),
      fail: (difference) => this.charge(difference),
    };
  }

  /** Runs one case; an exception in it is a difference of the case (never the end of the run). */
  async case(
    suite: CaseResult["suite"],
    name: string,
    body: (ctx: VerifyContext) => Promise<void>,
    skipped?: string,
  ): Promise<CaseResult> {
    const result: CaseResult = { suite, name, differences: [], requests: 0, ms: 0 };
    const started = performance.now();
    if (skipped !== undefined) result.skipped = skipped;
    else {
      this.current = result;
      try {
        await body(this.context);
      } catch (error) {
        result.differences.push(failureOf(name, suite, error));
      } finally {
        this.current = null;
      }
    }
    result.ms = performance.now() - started;
    this.results.push(result);
    this.options.onCase?.(result);
    return result;
  }

  /** Adds a difference to the running case, once per operation, rule and pointer (counting repeats). */
  private charge(difference: Difference): void {
    if (!this.current) return;
    const same = this.current.differences.find(
      (d) =>
        d.operationId === difference.operationId &&
        d.rule === difference.rule &&
        d.pointer === difference.pointer,
    );
    if (same) same.count = (same.count ?? 1) + 1;
    else this.current.differences.push(difference);
  }

  /**
   * Sends with the run's timeout (body included) and buffers the answer; no answer is an `Unanswered`, and after
   * `GIVE_UP_AFTER` in a row nothing more is sent.
   */
  private async exchange(request: Request, signal: AbortSignal | null | undefined) {
    if (this.unanswered >= GIVE_UP_AFTER)
      throw new Unanswered(
        `not sent: the server did not answer the last ${GIVE_UP_AFTER} requests (${this.lastFailure})`,
      );
    const timeout = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await (this.options.fetch ?? globalThis.fetch)(request, {
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      const body = new Uint8Array(await response.clone().arrayBuffer());
      this.unanswered = 0;
      return { response, body };
    } catch (error) {
      if (signal?.aborted) throw error;
      this.unanswered++;
      this.lastFailure = timeout.aborted
        ? `no complete answer within ${this.timeoutMs} ms`
        : `the connection failed: ${causeOf(error)}`;
      throw new Unanswered(`${request.method} ${request.url}: ${this.lastFailure}`);
    }
  }

  /** The client's fetch: sends, then checks the answer against the contract and charges the current case. */
  private async observedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? input : new Request(input, init);
    const requestBody = request.body ? new Uint8Array(await request.clone().arrayBuffer()) : null;
    const { response, body } = await this.exchange(request, init?.signal);
    const url = new URL(request.url);
    const path = url.pathname.startsWith(this.basePath)
      ? url.pathname.slice(this.basePath.length) || "/"
      : url.pathname;
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const requestHeaders: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      requestHeaders[name] = value;
    });
    const { operation, violations } = this.checker.check({
      method: request.method,
      path,
      status: response.status,
      headers,
      body: body.byteLength > 0 ? body : null,
    });
    violations.push(
      ...this.replay.observe(
        { method: request.method, path, headers: requestHeaders, body: requestBody },
        response.status,
        headers,
        body,
      ),
    );
    if (this.current) {
      this.current.requests++;
      for (const v of violations)
        this.charge({ operationId: operation?.operationId ?? `${request.method} ${path}`, ...v });
    }
    return response;
  }
}

/** The innermost reason of a failed fetch (`fetch failed` wraps what happened: `ECONNRESET`, `other side closed`). */
function causeOf(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause !== undefined; depth++)
    current = current.cause;
  if (current instanceof Error)
    return `${(current as { code?: string }).code ?? current.name}: ${current.message}`;
  return String(current);
}

/** What an exception in a case becomes: `network` when the server did not answer, else a failed step. */
function failureOf(name: string, suite: CaseResult["suite"], error: unknown): Difference {
  let unanswered: Unanswered | undefined;
  for (let e = error, depth = 0; depth < 5 && e instanceof Error; e = e.cause, depth++)
    if (e instanceof Unanswered) unanswered = e;
  if (unanswered) return { operationId: name, rule: "network", pointer: "/", message: unanswered.message };
  return {
    operationId: name,
    rule: suite === "authentication" ? "auth" : "journey",
    pointer: "/",
    message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  };
}
