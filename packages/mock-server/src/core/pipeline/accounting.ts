/**
 * The session's accounting, after every answer: a session that answered a write, a control or a keyed request is
 * weighed again (what it keeps counts against `maxRetainedRecords`); reads change nothing worth weighing.
 */
import type { Sessions } from "../sessions.ts";
import { always, type Stage } from "./exchange.ts";

export function accounting(sessions: Sessions): Stage {
  return always((ex) => {
    const session = ex.session;
    if (session && (!ex.route || ex.route.op.write || ex.idempotencyScope !== null))
      sessions.account(session);
  });
}
