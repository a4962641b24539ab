/**
 * The dispatcher: runs the stages in order on one `Exchange` and turns the way a stage stopped into the response —
 * an `Answered` as it is, a `ProblemError` rendered (`problemAnswer`, the pipeline's one problem renderer) in the
 * culture and with the path and rate headers known when it was thrown. Anything else is a bug and propagates (the
 * engine answers it with a logged 500, rendered the same way).
 */
import { cors } from "../cors.ts";
import { ProblemError } from "../problems.ts";
import type { MockResponse } from "../types.ts";
import { Answered, type Exchange, problemAnswer, type Stage } from "./exchange.ts";

/**
 * Runs `stages` on `ex`. Generic so a pipeline over a richer exchange (the contract proxy's) runs here too. The
 * answer comes back at once when every stage did its work at once (most requests): a promise only from the first
 * stage that had to wait (injected latency, a developer control, a handler that awaits). After a stop only the
 * stages marked `always` run, on the stop's response.
 */
export function runStages<E extends Exchange>(
  stages: readonly Stage<E>[],
  ex: E,
): MockResponse | Promise<MockResponse> {
  let i = 0;
  try {
    for (; i < stages.length; i++) {
      const pending = (stages[i] as Stage<E>)(ex);
      if (pending) return finishLater(stages, i + 1, ex, pending);
    }
  } catch (stop) {
    return afterStop(stages, i + 1, ex, stop);
  }
  return answerOf(ex);
}

/** The rest of the stages after one that waits, each awaited in turn. */
async function finishLater<E extends Exchange>(
  stages: readonly Stage<E>[],
  next: number,
  ex: E,
  waiting: Promise<void>,
): Promise<MockResponse> {
  let i = next - 1;
  try {
    await waiting;
    for (i = next; i < stages.length; i++) {
      const pending = (stages[i] as Stage<E>)(ex);
      if (pending) await pending;
    }
  } catch (stop) {
    return afterStop(stages, i + 1, ex, stop);
  }
  return answerOf(ex);
}

/**
 * The response of a stage that stopped the request — an `Answered` as it is, a `ProblemError` rendered — passed
 * through the `always` stages after it. Anything else is a bug and propagates.
 */
function afterStop<E extends Exchange>(
  stages: readonly Stage<E>[],
  next: number,
  ex: E,
  stop: unknown,
): MockResponse {
  ex.stopped = true;
  if (stop instanceof Answered) ex.response = stop.response;
  else if (stop instanceof ProblemError) ex.response = stopAnswer(ex, stop);
  else throw stop;
  for (let i = next; i < stages.length; i++) {
    const stage = stages[i] as Stage<E>;
    if (stage.always) stage(ex);
  }
  return answerOf(ex);
}

function answerOf(ex: Exchange): MockResponse {
  if (!ex.response) throw new Error("The pipeline ended without an answer: it needs an answering stage.");
  return ex.response;
}

/** A problem that stopped the request, as its answer: rendered (`problemAnswer`), with CORS (no `finish` runs). */
export function stopAnswer(ex: Exchange, problem: ProblemError): MockResponse {
  return cors(problemAnswer(ex, problem), ex.origin);
}
