/**
 * Response validation (tests, and a proxy checking its upstream): the answer is checked against the document —
 * status, content type, body schema. A violation is recorded; in "strict" mode the answer becomes a 500 naming it.
 */
import { ContractChecker } from "../contract.ts";
import type { OpenApiDocument, OperationSpec } from "../document.ts";
import { stageProblem } from "../problems.ts";
import type { MockResponse } from "../types.ts";
import type { Validator } from "../validation.ts";
import { type Exchange, problemAnswer, type Stage } from "./exchange.ts";

/** A response the document does not describe. */
export interface ResponseViolation {
  operationId: string;
  status: number;
  errors: string[];
}

/** What response checking needs: the document, its validators, where violations go, and whether they are fatal. */
export interface ResponseCheckServices extends ResponseContract {
  violations: ResponseViolation[];
  mode: true | "report" | "strict";
}

/** The response-check stage (only in the pipeline when `validateResponses` is on). */
export function checkResponses(services: ResponseCheckServices): Stage {
  return (ex: Exchange) => {
    if (ex.response) checkResponse(services, ex, ex.response);
  };
}

/**
 * Records a response that the document does not describe (status, content type, body schema) in
 * `core.responseViolations`; in "strict" mode replaces it with a 500 naming the violations.
 */
function checkResponse(services: ResponseCheckServices, ex: Exchange, response: MockResponse): void {
  const op = ex.op;
  const errors = responseViolations(services, op, response);
  if (errors.length === 0) return;
  services.violations.push({ operationId: op.operationId, status: response.status, errors });
  if (services.mode === "strict") {
    ex.response = problemAnswer(
      ex,
      stageProblem("internal-error", {
        detail: `The mock's response violates the document: ${errors.join("; ")}`,
        extensions: { violations: errors, originalStatus: response.status },
      }),
    );
  }
}

/** One contract checker per engine (its validator's compiler, its compiled operations). */
const checkers = new WeakMap<Validator, ContractChecker>();

/** What checking a response needs from the engine. */
export interface ResponseContract {
  validator: Validator;
  document: OpenApiDocument;
  operations: OperationSpec[];
}

/**
 * What makes a response differ from the document, as `rule pointer: message` lines (the contract checker's rules:
 * status, media type, JSON, schema, documented headers, problem shape). Empty when it conforms (tests run every
 * fuzzed response through it).
 */
export function responseViolations(
  core: ResponseContract,
  op: OperationSpec,
  response: Pick<MockResponse, "status" | "headers" | "body">,
): string[] {
  let checker = checkers.get(core.validator);
  if (!checker) {
    checker = new ContractChecker(core.document, core.validator.schemaCompiler, core.operations);
    checkers.set(core.validator, checker);
  }
  return checker
    .checkOperation(op, { method: op.method, path: op.template, ...response })
    .map((v) => `${v.rule} ${v.pointer}: ${v.message}`);
}
