/**
 * Response validation (tests, and a proxy checking its upstream): the answer is checked against the document —
 * status, content type, body schema. A violation is recorded; in "strict" mode the answer becomes a 500 naming it.
 */
import type { OperationSpec } from "../document.ts";
import { problemResponse } from "../problems.ts";
import type { Culture, MockResponse } from "../types.ts";
import type { Validator } from "../validation.ts";
import type { Exchange, Stage } from "./exchange.ts";

/** A response the document does not describe. */
export interface ResponseViolation {
  operationId: string;
  status: number;
  errors: string[];
}

/** What response checking needs: the document's validators, where violations go, and whether they are fatal. */
export interface ResponseCheckServices {
  validator: Validator;
  violations: ResponseViolation[];
  mode: true | "report" | "strict";
}

/** The response-check stage (only in the pipeline when `validateResponses` is on). */
export function checkResponses(services: ResponseCheckServices): Stage {
  return (ex: Exchange) => {
    if (ex.response) checkResponse(services, ex.op, ex.response, ex.culture, ex.logId);
  };
}

/**
 * Records a response that the document does not describe (status, content type, body schema) in
 * `core.responseViolations`; in "strict" mode turns it into a 500 naming the violations.
 */
function checkResponse(
  services: ResponseCheckServices,
  op: OperationSpec,
  response: MockResponse,
  culture: Culture,
  logId: string,
): void {
  const errors = responseViolations(services, op, response);
  if (errors.length === 0) return;
  services.violations.push({ operationId: op.operationId, status: response.status, errors });
  if (services.mode === "strict") {
    const problem = problemResponse("internal-error", culture, logId, undefined, {
      detail: `The mock's response violates the document: ${errors.join("; ")}`,
      extensions: { violations: errors, originalStatus: response.status },
    });
    response.status = problem.status;
    response.headers = problem.headers;
    response.body = problem.body;
  }
}

/**
 * What makes a response differ from the document: an undocumented status or content type, a body the status's
 * schema rejects, or a missing body. Empty when it conforms (tests run every fuzzed response through it).
 */
export function responseViolations(
  core: { validator: Validator },
  op: OperationSpec,
  response: Pick<MockResponse, "status" | "headers" | "body">,
): string[] {
  const status = String(response.status);
  const media =
    op.responses.get(status) ?? op.responses.get(`${status[0]}XX`) ?? op.responses.get("default") ?? null;
  const errors: string[] = [];
  if (!media) {
    errors.push(`Status ${status} is not documented for ${op.operationId}.`);
  } else {
    const type = (response.headers["content-type"] ?? "").split(";")[0]?.trim() ?? "";
    if (media.size > 0 && response.body !== null) {
      if (!media.has(type))
        errors.push(`Content-Type ${type} is not documented for ${op.operationId} ${status}.`);
      else {
        const pointer = media.get(type);
        if (pointer && typeof response.body === "string" && type.endsWith("json")) {
          errors.push(...core.validator.response(pointer, JSON.parse(response.body)));
        }
      }
    } else if (media.size > 0 && response.body === null && status !== "204") {
      errors.push(`${op.operationId} ${status} has no body but the document describes one.`);
    }
  }
  return errors;
}
