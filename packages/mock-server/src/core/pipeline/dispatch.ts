/**
 * The dispatcher: runs the stages in order on one `Exchange` and turns the way a stage stopped into the response —
 * an `Answered` as it is, a `ProblemError` rendered here, once, in the culture and with the path and rate headers
 * known when it was thrown. Anything else is a bug and propagates (the engine answers it with a logged 500).
 */
import { ProblemError, problemResponse } from "../problems.ts";
import type { MockResponse } from "../types.ts";
import { Answered, type Exchange } from "./exchange.ts";

/** Runs `stages` on `ex`. Generic so a pipeline over a richer exchange (the contract proxy's) runs here too. */
export async function runStages<E extends Exchange>(
  stages: readonly ((exchange: E) => void | Promise<void>)[],
  ex: E,
): Promise<MockResponse> {
  try {
    for (const stage of stages) {
      const pending = stage(ex);
      if (pending) await pending;
    }
  } catch (stop) {
    if (stop instanceof Answered) return stop.response;
    if (stop instanceof ProblemError) return renderProblem(ex, stop);
    throw stop;
  }
  if (!ex.response) throw new Error("The pipeline ended without an answer: it needs an answering stage.");
  return ex.response;
}

/** A stage's problem as problem+json (RFC 9457), with CORS. */
export function renderProblem(ex: Exchange, problem: ProblemError): MockResponse {
  return problemResponse(problem.slug, ex.culture, ex.logId, ex.origin, {
    ...(ex.pathname !== undefined ? { instance: ex.pathname } : {}),
    headers: { ...ex.rateHeaders, ...problem.headers },
    detail: problem.detail,
    errors: problem.errors,
    extensions: problem.extensions,
    status: problem.status,
  });
}
