/**
 * The dispatcher: runs the stages in order on one `Exchange` and turns the way a stage stopped into the response —
 * an `Answered` as it is, a `ProblemError` rendered here, once, in the culture and with the path and rate headers
 * known when it was thrown. Anything else is a bug and propagates (the engine answers it with a logged 500).
 */
import { ProblemError, problemResponse } from "../problems.ts";
import type { MockResponse } from "../types.ts";
import { Answered, type Exchange } from "./exchange.ts";

/**
 * Runs `stages` on `ex`. Generic so a pipeline over a richer exchange (the contract proxy's) runs here too. The
 * answer comes back at once when every stage did its work at once (most requests): a promise only from the first
 * stage that had to wait (injected latency, a developer control, a handler that awaits).
 */
export function runStages<E extends Exchange>(
  stages: readonly ((exchange: E) => void | Promise<void>)[],
  ex: E,
): MockResponse | Promise<MockResponse> {
  try {
    for (let i = 0; i < stages.length; i++) {
      const pending = (stages[i] as (exchange: E) => void | Promise<void>)(ex);
      if (pending) return finishLater(stages, i + 1, ex, pending);
    }
  } catch (stop) {
    return stopped(ex, stop);
  }
  return answerOf(ex);
}

/** The rest of the stages after one that waits, each awaited in turn. */
async function finishLater<E extends Exchange>(
  stages: readonly ((exchange: E) => void | Promise<void>)[],
  next: number,
  ex: E,
  waiting: Promise<void>,
): Promise<MockResponse> {
  try {
    await waiting;
    for (let i = next; i < stages.length; i++) {
      const pending = (stages[i] as (exchange: E) => void | Promise<void>)(ex);
      if (pending) await pending;
    }
  } catch (stop) {
    return stopped(ex, stop);
  }
  return answerOf(ex);
}

/** The response of a stage that stopped the request: an `Answered` as it is, a `ProblemError` rendered. */
function stopped(ex: Exchange, stop: unknown): MockResponse {
  if (stop instanceof Answered) return stop.response;
  if (stop instanceof ProblemError) return renderProblem(ex, stop);
  throw stop;
}

function answerOf(ex: Exchange): MockResponse {
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
