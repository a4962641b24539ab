/** Developer controls (`/__mock`): the session's clock: read it, set it, advance it, freeze it. */
import { bad, type Control, clockState, isObject, json } from "./control.ts";

export const CLOCK_CONTROLS: Control[] = [
  {
    method: "GET",
    path: "/clock",
    description: "This session's clock.",
    run: ({ session, logId }) => json(200, clockState(session), logId),
  },
  {
    method: "POST",
    path: "/clock",
    description:
      "Move this session's clock: {advanceSeconds} | {advanceMs} | {set: RFC 3339} and/or {freeze: true|false}; {reset: true} returns to real time.",
    run: ({ session, body, logId }) => {
      if (!isObject(body)) bad('The body is a JSON object, e.g. {"advanceSeconds": 600}.');
      const b = body as Record<string, unknown>;
      const known = ["advanceSeconds", "advanceMs", "set", "freeze", "reset"];
      for (const key of Object.keys(b))
        if (!known.includes(key)) bad(`Unknown field "${key}".`, `/body/${key}`);
      if (b.reset === true) session.clock.reset();
      if (b.advanceSeconds !== undefined) {
        if (typeof b.advanceSeconds !== "number" || !Number.isFinite(b.advanceSeconds))
          bad("advanceSeconds is a number.", "/body/advanceSeconds");
        session.clock.advance((b.advanceSeconds as number) * 1000);
      }
      if (b.advanceMs !== undefined) {
        if (typeof b.advanceMs !== "number" || !Number.isFinite(b.advanceMs))
          bad("advanceMs is a number.", "/body/advanceMs");
        session.clock.advance(b.advanceMs as number);
      }
      if (b.set !== undefined) {
        const at = typeof b.set === "string" ? Date.parse(b.set) : Number.NaN;
        if (Number.isNaN(at)) bad("set is an RFC 3339 date-time.", "/body/set");
        session.clock.set(at);
      }
      if (b.freeze === true) session.clock.freeze();
      if (b.freeze === false) session.clock.unfreeze();
      return json(200, clockState(session), logId);
    },
  },
];
