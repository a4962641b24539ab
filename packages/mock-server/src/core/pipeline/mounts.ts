/**
 * Servers a transport mounts beside the API on their own paths (the node server's docs and BI assistant), each
 * loaded on its first request. Their paths are handed over before the API reads anything: the transport lets the
 * server answer on the connection itself, so it may stream (MCP's server-sent events).
 */
import type { MountedServer } from "../types.ts";
import { Answered, type Stage } from "./exchange.ts";

/** A server mounted on some paths. */
export interface Mount {
  /** The paths it may serve, tested on the target as sent (path and query): it is loaded on the first. */
  readonly paths: RegExp;
  /** The server, loaded once; null when its package is not installed (the API answers then). */
  load(): Promise<MountedServer | null>;
}

/** Hands a request the mounted server serves to it (a stop whose answer is `mounted`); any other goes on. */
export function handOver(mounts: readonly Mount[]): Stage {
  return (ex) => {
    const mount = mounts.find((m) => m.paths.test(ex.sent));
    return mount?.load().then((server) => {
      if (server?.serves(ex.request))
        throw new Answered({ status: 0, headers: {}, body: null, mounted: server });
    });
  };
}
