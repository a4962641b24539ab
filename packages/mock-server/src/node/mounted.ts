import type { IncomingMessage, ServerResponse } from "node:http";
import type { MountedServer } from "../core/types.ts";

/**
 * A server mounted beside the API as the node transport runs it: the pipeline asks `serves` (`core/pipeline/
 * mounts.ts`), the transport hands it the connection with `answer`.
 */
export interface NodeMountedServer extends MountedServer {
  /** Answers on the connection, the body already read; false (nothing written) when it does not serve the path. */
  answer(req: IncomingMessage, res: ServerResponse, body: Uint8Array | null): Promise<boolean>;
}
