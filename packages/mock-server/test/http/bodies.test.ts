/**
 * Request bodies on operations that take none (RFC 9110 §9.3.1: content in a GET has no defined semantics): whatever
 * its size, the answer is the 400 `malformed-request` every such operation declares — never a 413, which only
 * operations with a request body declare. A body over 1 MiB where one is expected stays a 413.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { responseViolations } from "../../src/core/pipeline/check-response.ts";
import { type Api, bearer, read, startApi } from "../helpers.ts";

let api: Api;
let token: string;
beforeAll(async () => {
  api = await startApi({ session: "bodies" });
  token = await api.token();
});
afterAll(() => api.close());

const MiB = 1024 * 1024;

/** A GET with a body (fetch refuses to send one; clients nobody on the team wrote do). */
function getWithBody(
  path: string,
  body: string,
): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${api.url}${path}`,
      {
        method: "GET",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "x-mock-session": "bodies",
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers.set(k, v);
          resolve({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString("utf8") });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function conforms(operationId: string, response: { status: number; headers: Headers }, text: string) {
  const core = api.mock.core;
  const op = core.operation(operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return responseViolations(core, op, {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: text,
  });
}

describe("a body sent to an operation that takes none", () => {
  it("over 1 MiB on a GET: 400 malformed-request naming the body, a status the operation declares", async () => {
    const response = await getWithBody("/shop/v1/discovery/events", "x".repeat(MiB + 1));
    const text = response.text;
    expect(response.status).toBe(400);
    const problem = read.problemText(text);
    expect(problem.type).toBe("https://docs.entrada.dev/problems/malformed-request");
    expect(problem.errors?.[0]?.pointer).toBe("/body");
    expect(await conforms("listEvents", response, text)).toEqual([]);
  });

  it("a small body on a GET gets the same answer", async () => {
    const response = await getWithBody("/shop/v1/discovery/events", "{}");
    expect(response.status).toBe(400);
    expect(read.problemText(response.text).type).toBe("https://docs.entrada.dev/problems/malformed-request");
  });

  it("over 1 MiB where a body is expected: 413 payload-too-large, as declared", async () => {
    const response = await api.fetch("/shop/v1/cart", {
      method: "POST",
      headers: bearer(token, { "content-type": "application/json" }),
      body: `{"currency":"${"x".repeat(MiB)}"}`,
    });
    const text = await response.text();
    expect(response.status).toBe(413);
    expect(await conforms("createCart", response, text)).toEqual([]);
  });
});

describe("the Content-Type of a body", () => {
  const post = (contentType: string) =>
    api.fetch("/shop/v1/cart", {
      method: "POST",
      headers: bearer(token, { "content-type": contentType }),
      body: "{}",
    });

  it("is read without regard to case or spaces, with or without a UTF-8 charset", async () => {
    for (const type of ["application/json", "Application/JSON", ' application/json ; Charset="UTF-8"']) {
      expect((await post(type)).status, type).toBe(201);
    }
  });

  it("with another charset or media type: 415 naming what the operation accepts", async () => {
    for (const type of [
      "application/json; charset=utf-16",
      "text/plain",
      "application/json;charset=latin1;x=1",
    ]) {
      const response = await post(type);
      const text = await response.text();
      expect(response.status, type).toBe(415);
      expect(response.headers.get("accept-post")).toBe("application/json");
      expect(read.problemText(text).detail).toContain("Send application/json (UTF-8)");
      expect(await conforms("createCart", response, text)).toEqual([]);
    }
  });
});
