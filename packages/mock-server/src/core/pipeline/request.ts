/**
 * One request's state once it has matched an operation, passed rate limiting and has a session: what the later
 * pipeline stages read (and the body and auth stages fill in), and the handler's input. Created once per request,
 * with every field present from the start so its shape never changes.
 */
import type { OperationSpec } from "../document.ts";
import type { MockRequest } from "../types.ts";
import type { HandlerInput } from "./10-invoke.ts";

export interface OperationRequest extends HandlerInput {
  request: MockRequest;
  /** Upper-cased request method (HEAD stays HEAD; the router served it from GET). */
  method: string;
  op: OperationSpec;
  /** The path's template, e.g. `/shop/v1/cart/{cartId}`. */
  template: string;
  /** The session clock's time when the request arrived. */
  now: number;
}
