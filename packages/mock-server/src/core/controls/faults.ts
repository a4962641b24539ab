/** Developer controls: fault injection rules (latency, errors, 429/503, dropped connections) for this session. */
import { parseFaultRule } from "../faults.ts";
import { ProblemError } from "../problems.ts";
import { bad, type Control, json } from "./control.ts";

export const FAULTS_CONTROLS: Control[] = [
  {
    method: "GET",
    path: "/faults",
    description: "Active fault rules of this session.",
    run: ({ session, logId }) => json(200, { items: session.faults }, logId),
  },
  {
    method: "POST",
    path: "/faults",
    description:
      "Add fault rules: {kind: latency|error|rate-limit|unavailable|drop, latencyMs?, probability?, times?, operationId?, method?, path?, retryAfterSeconds?} or an array of them.",
    run: ({ session, body, logId }) => {
      const list = Array.isArray(body) ? body : [body];
      const added = list.map((item, i) => {
        const rule = parseFaultRule(item, `flt_${++session.faultCounter}`);
        if (typeof rule === "string") bad(rule, Array.isArray(body) ? `/body/${i}` : "/body");
        return rule;
      });
      session.faults.push(...added);
      return json(201, { items: added }, logId);
    },
  },
  {
    method: "DELETE",
    path: "/faults",
    description: "Remove every fault rule of this session.",
    run: ({ session, logId }) => {
      session.faults = [];
      return json(200, { items: [] }, logId);
    },
  },
  {
    method: "DELETE",
    path: "/faults/{faultId}",
    description: "Remove one fault rule.",
    run: ({ session, params, logId }) => {
      const before = session.faults.length;
      session.faults = session.faults.filter((f) => f.id !== params.faultId);
      if (session.faults.length === before)
        throw new ProblemError("not-found", `No fault rule ${params.faultId}.`);
      return json(200, { items: session.faults }, logId);
    },
  },
];
