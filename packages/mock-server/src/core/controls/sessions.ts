/** Developer controls (`/__mock`): the mock sessions alive in this process. */
import { ProblemError } from "../problems.ts";
import { type Control, clockState, json } from "./control.ts";

export const SESSIONS_CONTROLS: Control[] = [
  {
    method: "GET",
    path: "/sessions",
    description: "Mock sessions alive in this process.",
    run: ({ core, logId }) =>
      json(
        200,
        {
          items: core.listSessions().map((s) => ({ id: s.id, clock: clockState(s), events: s.events.size })),
        },
        logId,
      ),
  },
  {
    method: "DELETE",
    path: "/sessions/{sessionId}",
    description: "Forget a session entirely (it is re-created from the seed on its next request).",
    run: ({ core, params, logId }) => {
      if (!core.dropSession(params.sessionId ?? ""))
        throw new ProblemError("not-found", `No session ${params.sessionId}.`);
      return json(200, { deleted: params.sessionId }, logId);
    },
  },
];
