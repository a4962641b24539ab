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
  rule: Violation["rule"] | "journey" | "language";
  pointer: string;
  message: string;
  /** How often the case met it (a difference is listed once per case). */
  count?: number;
}

export interface CaseResult {
  suite: "operations" | "journeys";
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
  /** Report progress (one line per finished case). */
  onCase?: (result: CaseResult) => void;
  fetch?: typeof globalThis.fetch;
  /** The document answers are checked against (default: the Entrada contract); `--openapi` on the command line. */
  document?: OpenApiDocument;
}

/** What a probe or a journey step works with. */
export interface VerifyContext {
  client: EntradaClient;
  baseUrl: string;
  checker: ContractChecker;
  readOnly: boolean;
  webhookUrl: string | undefined;
  /** Ids found along the way (events, gates, orders, …) for the probes' paths. */
  ids: Map<string, string>;
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

  constructor(private readonly options: VerifyOptions) {
    const document = options.document ?? entradaDocument;
    this.checker = new ContractChecker(document, ajvSchemaCompiler(document));
    this.basePath = new URL(options.baseUrl).pathname.replace(/\/+$/, "");
    const client = createClient({
      baseUrl: options.baseUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scope: ["Shop", "TERP"],
      // A conformance run reports what the server answers: one attempt per call.
      retry: false,
      fetch: (input: RequestInfo | URL, init?: RequestInit) => this.observedFetch(input, init),
    });
    this.context = {
      client,
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      checker: this.checker,
      readOnly: options.readOnly === true,
      webhookUrl: options.webhookUrl,
      ids: new Map(),
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
        result.differences.push({
          operationId: name,
          rule: "journey",
          pointer: "/",
          message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        });
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

  /** The client's fetch: sends, then checks the answer against the contract and charges the current case. */
  private async observedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? input : new Request(input, init);
    const requestBody = request.body ? new Uint8Array(await request.clone().arrayBuffer()) : null;
    const response = await (this.options.fetch ?? globalThis.fetch)(
      request,
      init?.signal ? { signal: init.signal } : undefined,
    );
    const body = new Uint8Array(await response.clone().arrayBuffer());
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
