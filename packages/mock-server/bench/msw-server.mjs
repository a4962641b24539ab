// The same engine behind msw's handler pipeline on node:http (a Fetch Request and Response per request):
// the "msw-based standalone" alternative the node transport is measured against.
import { createServer } from "node:http";
import { getResponse } from "msw";
import { createMock } from "../dist/msw/index.js";

const port = Number(process.argv[2] ?? 4020);
const base = `http://127.0.0.1:${port}`;
const mock = createMock({ baseUrl: base, rateLimit: false });

createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, String(value));
  const request = new Request(`${base}${req.url}`, {
    method: req.method,
    headers,
    body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
  });
  const response = await getResponse(mock.handlers, request);
  if (!response) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}).listen(port, "127.0.0.1", () => console.log(`msw bridge on ${base}`));
