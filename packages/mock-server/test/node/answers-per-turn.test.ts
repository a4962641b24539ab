/**
 * The node:http transport writes the answers of one event-loop turn together, after the turn (src/node/index.ts,
 * `writeAfterTurn`): none leaves before the turn ends, all leave in the order they were given, a write that fails
 * ends only its own connection, and a suite that fakes `setImmediate` still gets its answers.
 */
import { EventEmitter } from "node:events";
import { get, type IncomingMessage, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createEntradaMock } from "../../src/index.ts";
import { nodeHandler, startMockServer } from "../../src/node/index.ts";

/** A request and response pair as node:http hands them to a listener: what the transport reads and calls. */
function exchange(url: string, written: string[], failWrite = false) {
  const socket = {
    destroyed: false,
    destroy() {
      socket.destroyed = true;
    },
  };
  const req = Object.assign(new EventEmitter(), {
    method: "GET",
    url,
    headers: { host: "mock.test", "accept-language": "en-GB" },
    rawHeaders: ["Host", "mock.test", "Accept-Language", "en-GB"],
    socket,
    resume: () => {},
  });
  const res = {
    status: 0,
    writeHead(status: number) {
      if (failWrite) throw new TypeError("Invalid character in header content");
      res.status = status;
    },
    end() {
      written.push(url);
    },
  };
  return {
    req: req as unknown as IncomingMessage,
    res: res as unknown as ServerResponse,
    socket,
    status: () => res.status,
  };
}

const turnEnded = () => new Promise<void>((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("answers leave after the event loop's turn", () => {
  it("writes none during the turn and all, in the order given, after it", async () => {
    const handler = nodeHandler(createEntradaMock({ rateLimit: false }), "mock.test", {
      docs: false,
      biAssistant: false,
    });
    const written: string[] = [];
    const first = exchange("/shop/v1/discovery/events", written);
    const second = exchange("/__mock/health-of-nothing", written);
    handler(first.req, first.res);
    handler(second.req, second.res);
    expect(written).toEqual([]);
    await turnEnded();
    expect(written).toEqual(["/shop/v1/discovery/events", "/__mock/health-of-nothing"]);
    // The engine answered both (no token: 401; an unknown control: 404), each on its own response.
    expect(first.status()).toBe(401);
    expect(second.status()).toBe(404);
  });

  it("ends only the connection whose answer cannot be written; the others of the turn still go", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const handler = nodeHandler(createEntradaMock({ rateLimit: false }), "mock.test", {
      docs: false,
      biAssistant: false,
    });
    const written: string[] = [];
    const broken = exchange("/shop/v1/discovery/events?broken", written, true);
    const fine = exchange("/shop/v1/discovery/events?fine", written);
    handler(broken.req, broken.res);
    handler(fine.req, fine.res);
    await turnEnded();
    expect(broken.socket.destroyed).toBe(true);
    expect(fine.socket.destroyed).toBe(false);
    expect(written).toEqual(["/shop/v1/discovery/events?fine"]);
    expect(console.error).toHaveBeenCalledWith(expect.objectContaining({ name: "TypeError" }));
  });

  it("answers over HTTP while the caller's test has faked setImmediate", async () => {
    const mock = await startMockServer({ port: 0, webhooks: false, docs: false, biAssistant: false });
    try {
      vi.useFakeTimers({ toFake: ["setImmediate", "clearImmediate"] });
      const status = await new Promise<number>((resolve, reject) => {
        get(`${mock.url}/shop/v1/discovery/events`, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on("error", reject);
      });
      expect(status).toBe(401);
    } finally {
      vi.useRealTimers();
      await mock.close();
    }
  });
});
