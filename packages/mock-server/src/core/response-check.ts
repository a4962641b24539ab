/** Response validation (tests): the mock's own answers checked against the document. */
import type { OperationSpec } from "./document.ts";
import type { MockCore } from "./engine.ts";
import { problemResponse } from "./problem-response.ts";
import type { Culture, MockResponse } from "./types.ts";

/**
 * Records a response that the document does not describe (status, content type, body schema) in
 * `core.responseViolations`; in "strict" mode turns it into a 500 naming the violations.
 */
export function checkResponse(
  core: MockCore,
  op: OperationSpec,
  response: MockResponse,
  culture: Culture,
  logId: string,
): void {
  const errors = responseViolations(core, op, response);
  if (errors.length === 0) return;
  core.responseViolations.push({ operationId: op.operationId, status: response.status, errors });
  if (core.options.validateResponses === "strict") {
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
  core: Pick<MockCore, "validator">,
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
