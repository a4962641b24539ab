/**
 * `answerNode`: a host `node:http` server (the mock's CLI) mounts the documentation server on its own port — the
 * docs answer their paths, everything else is left to the host untouched, and a failing docs server is a 500
 * problem, not a crash.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { answerNode, createNodeDocsServer, type DocsServer } from "../src/index.ts";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** A host that reads the body, offers the request to the docs, and answers 418 with the body itself otherwise. */
async function host(docs: DocsServer): Promise<string> {
  const running = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const body = chunks.length > 0 ? new Uint8Array(Buffer.concat(chunks)) : null;
      if (await answerNode(docs, req, res, body)) return;
      res
        .writeHead(418, { "content-type": "text/plain" })
        .end(`host: ${req.method} ${req.url} ${body?.length ?? 0}`);
    });
  });
  server = running;
  await new Promise<void>((resolve) => running.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(running.address() as AddressInfo).port}`;
}

describe("answerNode", () => {
  it("answers the docs' paths (a POST to MCP with its body included) and leaves the rest to the host", async () => {
    const url = await host(createNodeDocsServer());
    const page = await fetch(`${url}/ai/index.md`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const mcp = await fetch(`${url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(200);
    expect(JSON.stringify(await mcp.json())).toContain("search_docs");
    const other = await fetch(`${url}/shop/v1/cart`, { method: "POST", body: "12345" });
    expect(other.status).toBe(418);
    expect(await other.text()).toBe("host: POST /shop/v1/cart 5");
  });

  it("turns a failing docs server into a 500 problem and keeps serving", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    let calls = 0;
    const failing: DocsServer = {
      ...createNodeDocsServer(),
      fetch: async () => {
        calls++;
        throw new Error("index corrupted");
      },
    };
    const url = await host(failing);
    const response = await fetch(`${url}/ai/index.md`);
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ status: 500, title: "Internal error" });
    expect((await fetch(`${url}/ai/index.md`)).status).toBe(500);
    expect(calls).toBe(2);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: "index corrupted" }));
    logged.mockRestore();
  });
});
