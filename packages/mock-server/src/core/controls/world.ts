/** Developer controls (`/__mock`): the session's data: reset to the seed, replace the seed, snapshot and restore. */
import type { SeedData } from "../types.ts";
import { bad, type Control, clockState, isObject, json } from "./control.ts";

export const WORLD_CONTROLS: Control[] = [
  {
    method: "POST",
    path: "/reset",
    description: "Reset this session's data to its seed (body optional: {seed} to replace the seed).",
    run: ({ session, body, logId }) => {
      if (body !== undefined && !(isObject(body) && (body.seed === undefined || isObject(body.seed)))) {
        bad('The body is optional; when sent it is {"seed": {...}}.');
      }
      const seed = isObject(body) && isObject(body.seed) ? (body.seed as SeedData) : undefined;
      session.reset(seed);
      return json(200, { reset: true, session: session.id, clock: clockState(session) }, logId);
    },
  },
  {
    method: "POST",
    path: "/seed",
    description: "Replace this session's seed with the JSON body (keyed by section) and reset to it.",
    run: ({ session, body, logId }) => {
      if (!isObject(body)) bad("The body is a seed: a JSON object keyed by section name.");
      session.reset(body as SeedData);
      return json(200, { seeded: true, session: session.id, sections: Object.keys(session.world) }, logId);
    },
  },
  {
    method: "GET",
    path: "/snapshot",
    description: "This session's whole state (world, seed, clock) as JSON, for /__mock/restore.",
    run: ({ session, logId }) =>
      json(
        200,
        {
          version: 1,
          session: session.id,
          clock: clockState(session),
          seed: session.seed,
          world: session.world,
        },
        logId,
      ),
  },
  {
    method: "POST",
    path: "/restore",
    description: "Restore a snapshot taken with GET /__mock/snapshot (the clock is restored too).",
    run: ({ session, body, logId }) => {
      if (!isObject(body) || body.version !== 1 || !isObject(body.world)) {
        bad("The body is a snapshot from GET /__mock/snapshot ({version: 1, world, ...}).");
      }
      const snapshot = body as {
        world: Record<string, unknown>;
        seed?: SeedData;
        clock?: { epochMs?: number; frozen?: boolean };
      };
      session.world = structuredClone(snapshot.world);
      if (isObject(snapshot.seed)) session.seed = snapshot.seed;
      if (typeof snapshot.clock?.epochMs === "number") {
        session.clock.set(snapshot.clock.epochMs);
        if (snapshot.clock.frozen) session.clock.freeze();
      }
      session.idempotency.clear();
      return json(200, { restored: true, session: session.id, clock: clockState(session) }, logId);
    },
  },
];
