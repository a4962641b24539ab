/**
 * Fuzzes every operation of the document with bad input over real HTTP: malformed and truncated JSON, wrong
 * types, missing and extra fields, huge payloads, bad and duplicated headers, bad culture tags, invalid UTF-8,
 * path traversal and absurd pagination. Never a 5xx, never a change of state, always a problem that says what
 * was wrong. A seeded PRNG keeps every run identical (change FUZZ_SEED to explore).
 */
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationSpec } from "../../src/core/document.ts";
import { getPointer } from "../../src/core/document.ts";
import { mulberry32 } from "../../src/core/ids.ts";
import { responseViolations } from "../../src/core/pipeline/check-response.ts";
import { type Api, read, startApi } from "../helpers.ts";

const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const SESSION = "fuzz";

let api: Api;
let token: string;

beforeAll(async () => {
  api = await startApi({ session: SESSION });
  token = await api.token("Shop TERP");
});
afterAll(() => api.close());

interface Case {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: Uint8Array | string;
  /** The request would be valid on its own: the case only makes sense when the engine must reject it. */
}

const encoder = new TextEncoder();

/** Sends raw HTTP (so headers can be duplicated and bodies can be any bytes). */
function send(
  c: Case,
): Promise<
  { status: number; headers: Record<string, string | string[] | undefined>; body: string } | "dropped"
> {
  return new Promise((resolve, reject) => {
    const url = new URL(api.url);
    const body = typeof c.body === "string" ? encoder.encode(c.body) : c.body;
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: c.method,
        path: c.path,
        headers: {
          "x-mock-session": SESSION,
          ...c.headers,
          ...(body ? { "content-length": String(body.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", (error) =>
      (error as NodeJS.ErrnoException).code === "ECONNRESET" ? resolve("dropped") : reject(error),
    );
    req.end(body);
  });
}

function exampleOf(op: OperationSpec, media: string): unknown {
  const doc = api.mock.core.document;
  const operation = getPointer(doc, op.pointer) as {
    requestBody?: {
      content?: Record<string, { example?: unknown; examples?: Record<string, { value?: unknown }> }>;
    };
  };
  const content = operation.requestBody?.content?.[media];
  if (content?.example !== undefined) return content.example;
  const first = content?.examples ? Object.values(content.examples)[0]?.value : undefined;
  return first ?? {};
}

/** A pattern-valid but unknown id for a path parameter (so requests reach body validation). */
function paramValue(op: OperationSpec, name: string): string {
  const spec = op.params.find((p) => p.in === "path" && p.name === name);
  const schema = spec?.schemaPointer ? resolveSchema(spec.schemaPointer) : {};
  const pattern = typeof schema.pattern === "string" ? schema.pattern : "";
  const prefix = /^\^([a-z]+_)/.exec(pattern)?.[1];
  if (prefix) return `${prefix}FUZZ0000000000000000000000`;
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  return "fuzz";
}

function resolveSchema(pointer: string): Record<string, unknown> {
  const doc = api.mock.core.document;
  let schema = getPointer(doc, pointer) as Record<string, unknown>;
  for (let i = 0; i < 5 && typeof schema?.$ref === "string"; i++)
    schema = getPointer(doc, (schema.$ref as string).slice(1)) as Record<string, unknown>;
  return schema ?? {};
}

function buildPath(op: OperationSpec, override?: Record<string, string>): string {
  return op.template.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => override?.[name] ?? encodeURIComponent(paramValue(op, name)),
  );
}

function wrongTypeOf(value: unknown): unknown {
  if (typeof value === "string") return 12345;
  if (typeof value === "number") return "not-a-number";
  if (typeof value === "boolean") return "yes";
  if (Array.isArray(value)) return { not: "an array" };
  if (value === null) return [];
  return ["not", "an", "object"];
}

function casesFor(op: OperationSpec, random: () => number): Case[] {
  const auth = { authorization: `Bearer ${token}` };
  const path = buildPath(op);
  const out: Case[] = [];
  const add = (name: string, c: Omit<Case, "name">) => out.push({ name: `${op.operationId}: ${name}`, ...c });
  const json = op.body?.media.has("application/json");
  const form = op.body?.media.has("application/x-www-form-urlencoded");
  const contentType = json
    ? "application/json"
    : form
      ? "application/x-www-form-urlencoded"
      : "application/json";

  // Headers and culture.
  for (const bad of ["en_GB", "de-CH;q=7", "x".repeat(600), "de-CH;;", "🦄"]) {
    add(`bad Accept-Language ${JSON.stringify(bad.slice(0, 12))}`, {
      method: op.method,
      path,
      headers: { ...auth, "accept-language": encodeURIComponent(bad) === bad ? bad : "de_CH" },
    });
  }
  add("duplicated Authorization", {
    method: op.method,
    path,
    headers: { authorization: [`Bearer ${token}`, "Bearer other"] },
  });
  add("duplicated Content-Type", {
    method: op.method,
    path,
    headers: { ...auth, "content-type": ["application/json", "text/plain"] },
    body: "{}",
  });
  add("unacceptable Accept", {
    method: op.method,
    path,
    headers: { ...auth, accept: "application/x-nothing" },
  });
  add("bad X-Mock-Session", { method: op.method, path, headers: { ...auth, "x-mock-session": "../../etc" } });
  add("garbage bearer", {
    method: op.method,
    path,
    headers: { authorization: "Bearer %%not-a-token%%" },
  });
  if (op.write) {
    add("Idempotency-Key too long", {
      method: op.method,
      path,
      headers: { ...auth, "idempotency-key": "k".repeat(300) },
    });
    add("Idempotency-Key with spaces", {
      method: op.method,
      path,
      headers: { ...auth, "idempotency-key": "a b c" },
    });
  }

  // Path traversal and odd ids.
  for (const name of op.params.filter((p) => p.in === "path").map((p) => p.name)) {
    for (const evil of [
      "..%2F..%2Fetc%2Fpasswd",
      "%2E%2E",
      "%00",
      "%E0%A4%A",
      "a%5C..%5Cb",
      "x".repeat(300),
      "%27%20OR%201%3D1",
    ]) {
      add(`path ${name}=${evil.slice(0, 16)}`, {
        method: op.method,
        path: buildPath(op, { [name]: evil }),
        headers: auth,
      });
    }
  }
  add("path traversal after the route", {
    method: op.method,
    path: `${path}/../../__mock/reset`,
    headers: auth,
  });

  // Query.
  add("unknown query parameter", { method: op.method, path: `${path}?zzz=1&__proto__=x`, headers: auth });
  if (op.params.some((p) => p.in === "query" && p.name === "limit")) {
    for (const limit of ["-1", "0", "1000000000", "abc", "1.5", "1e309", ""]) {
      add(`limit=${limit}`, {
        method: op.method,
        path: `${path}?limit=${encodeURIComponent(limit)}`,
        headers: auth,
      });
    }
    add("limit repeated", { method: op.method, path: `${path}?limit=1&limit=2`, headers: auth });
  }
  if (op.params.some((p) => p.in === "query" && p.name === "cursor")) {
    for (const cursor of ["%%%", "x".repeat(5000), "eyJhZnRlciI6MX0", "null"]) {
      add(`cursor ${cursor.slice(0, 10)}`, {
        method: op.method,
        path: `${path}?cursor=${encodeURIComponent(cursor)}`,
        headers: auth,
      });
    }
  }

  // Bodies.
  const bodyHeaders = { ...auth, "content-type": contentType };
  if (!op.body) {
    add("body on an operation without one", {
      method: op.method === "GET" ? "POST" : op.method,
      path,
      headers: bodyHeaders,
      body: '{"a":1}',
    });
    if (op.method !== "GET")
      add("unexpected body", { method: op.method, path, headers: bodyHeaders, body: '{"a":1}' });
    return out;
  }
  const example = exampleOf(op, json ? "application/json" : "application/x-www-form-urlencoded");
  if (json) {
    const text = JSON.stringify(example);
    add("malformed JSON", { method: op.method, path, headers: bodyHeaders, body: '{"a": ' });
    add("truncated JSON", {
      method: op.method,
      path,
      headers: bodyHeaders,
      body: text.slice(0, Math.max(1, Math.floor(text.length * random()))),
    });
    add("JSON with trailing garbage", { method: op.method, path, headers: bodyHeaders, body: `${text} }` });
    add("invalid UTF-8", {
      method: op.method,
      path,
      headers: bodyHeaders,
      body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    });
    add("overlong UTF-8 NUL", {
      method: op.method,
      path,
      headers: bodyHeaders,
      body: new Uint8Array([0x22, 0xc0, 0x80, 0x22]),
    });
    for (const shape of ["[]", '"string"', "42", "null", "true"]) {
      add(`body ${shape}`, { method: op.method, path, headers: bodyHeaders, body: shape });
    }
    add("huge payload", {
      method: op.method,
      path,
      headers: bodyHeaders,
      body: JSON.stringify({ blob: "x".repeat(2 * 1024 * 1024) }),
    });
    add("deeply nested", {
      method: op.method,
      path,
      headers: bodyHeaders,
      body: `${"[".repeat(5000)}${"]".repeat(5000)}`,
    });
    add("wrong content type", {
      method: op.method,
      path,
      headers: { ...auth, "content-type": "text/plain" },
      body: text,
    });
    add("xml", {
      method: op.method,
      path,
      headers: { ...auth, "content-type": "application/xml" },
      body: "<cart/>",
    });
    add("non-UTF-8 charset", {
      method: op.method,
      path,
      headers: { ...auth, "content-type": "application/json; charset=latin1" },
      body: text,
    });
    if (example && typeof example === "object" && !Array.isArray(example)) {
      const fields = Object.keys(example as object);
      add("extra field", {
        method: op.method,
        path,
        headers: bodyHeaders,
        body: JSON.stringify({ ...(example as object), zzzUnknown: true }),
      });
      add("__proto__ pollution", {
        method: op.method,
        path,
        headers: bodyHeaders,
        body: `{"__proto__": {"admin": true}, ${text.slice(1)}`,
      });
      for (const field of fields) {
        const broken = { ...(example as Record<string, unknown>) };
        broken[field] = wrongTypeOf(broken[field]);
        add(`wrong type ${field}`, {
          method: op.method,
          path,
          headers: bodyHeaders,
          body: JSON.stringify(broken),
        });
        const missing = { ...(example as Record<string, unknown>) };
        delete missing[field];
        add(`missing ${field}`, {
          method: op.method,
          path,
          headers: bodyHeaders,
          body: JSON.stringify(missing),
        });
        const huge = { ...(example as Record<string, unknown>) };
        huge[field] = typeof huge[field] === "number" ? 1e308 : "x".repeat(70_000);
        add(`absurd ${field}`, { method: op.method, path, headers: bodyHeaders, body: JSON.stringify(huge) });
      }
    }
  }
  if (form) {
    const formHeaders = {
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    };
    add("form: repeated grant_type", {
      method: op.method,
      path,
      headers: formHeaders,
      body: "grant_type=client_credentials&grant_type=x",
    });
    add("form: unknown grant", {
      method: op.method,
      path,
      headers: formHeaders,
      body: "grant_type=password",
    });
    add("form: invalid UTF-8", {
      method: op.method,
      path,
      headers: formHeaders,
      body: new Uint8Array([0x67, 0x3d, 0xff]),
    });
    add("form: JSON body", {
      method: op.method,
      path,
      headers: { ...formHeaders, "content-type": "application/json" },
      body: '{"grant_type":"client_credentials"}',
    });
    add("form: huge", {
      method: op.method,
      path,
      headers: formHeaders,
      body: `grant_type=${"x".repeat(2 * 1024 * 1024)}`,
    });
    add("form: bad basic", {
      method: op.method,
      path,
      headers: { ...formHeaders, authorization: "Basic !!!" },
      body: "grant_type=client_credentials",
    });
  }
  return out;
}

/** Whether the case's path (as the engine routes it) is this operation's. */
function routesTo(op: OperationSpec, c: Case): boolean {
  let path: string;
  try {
    path = new URL(c.path, api.url).pathname;
  } catch {
    return false;
  }
  const match = api.mock.core.router.match(c.method, path);
  return match.kind === "found" && match.route.op.operationId === op.operationId;
}

function isValidBody(op: OperationSpec, c: Case): boolean {
  // A mutation that happens to satisfy the schema is not bad input (e.g. removing an optional field).
  if (!op.body || typeof c.body !== "string" || c.headers["content-type"] !== "application/json")
    return false;
  try {
    const value = JSON.parse(c.body);
    return api.mock.core.validator.body(op, "application/json", value, "en-GB").length === 0;
  } catch {
    return false;
  }
}

describe("fuzz every operation", () => {
  it("never answers 5xx, never changes state, always explains the problem", {
    timeout: 240_000,
  }, async () => {
    const random = mulberry32(FUZZ_SEED);
    const before = JSON.stringify((await (await api.fetch("/__mock/snapshot")).json()).world);
    const failures: string[] = [];
    let sent = 0;
    const operations = api.mock.core.operations;
    // Operations no section implements yet answer 501 to well-formed requests; bad input still gets a 4xx.
    const unimplemented = new Set(api.mock.core.unimplemented);
    expect(operations.length).toBeGreaterThanOrEqual(18);
    for (const op of operations) {
      const cases = casesFor(op, random).filter((c) => !isValidBody(op, c));
      // Shuffle deterministically so ordering effects are explored too.
      for (let i = cases.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [cases[i], cases[j]] = [cases[j] as Case, cases[i] as Case];
      }
      for (const c of cases) {
        const response = await send(c);
        sent++;
        if (response === "dropped") {
          failures.push(`${c.name}: connection dropped`);
          continue;
        }
        const type = String(response.headers["content-type"] ?? "");
        if (response.status === 501 && unimplemented.has(op.operationId)) continue;
        // Conformance on every status: when the request reached this operation's route, whatever it answered
        // (the engine's own 400/401/403/406/413/415 included, the BI feed's OData errors too) is a documented
        // status with a conforming body.
        if (routesTo(op, c)) {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(response.headers)) if (typeof v === "string") headers[k] = v;
          const violations = responseViolations(api.mock.core, op, {
            status: response.status,
            headers,
            body: response.body === "" ? null : response.body,
          });
          if (violations.length > 0) failures.push(`${c.name}: ${response.status} ${violations.join("; ")}`);
        }
        if (response.status >= 500)
          failures.push(`${c.name}: ${response.status} ${response.body.slice(0, 200)}`);
        else if (response.status < 400) failures.push(`${c.name}: accepted with ${response.status}`);
        else if (op.operationId === "createToken" && type === "application/json") {
          const body = read.oauthErrorText(response.body);
          if (!body.error || !body.error_description)
            failures.push(`${c.name}: OAuth error without error/description`);
        } else if (op.tag === "bi") {
          // The BI feed answers every error, the engine's own included, as OData JSON.
          const body = (type === "application/json" ? JSON.parse(response.body) : {}) as {
            error?: { code?: string; message?: string; target?: unknown; details?: unknown[] };
          };
          if (
            type !== "application/json" ||
            response.headers["odata-version"] !== "4.0" ||
            !body.error?.code ||
            !body.error.message ||
            !("target" in body.error) ||
            !Array.isArray(body.error.details)
          )
            failures.push(
              `${c.name}: not an OData error: ${response.status} ${type} ${response.body.slice(0, 200)}`,
            );
          if (!response.headers["content-language"])
            failures.push(`${c.name}: OData error without Content-Language`);
        } else if (type !== "application/problem+json") {
          failures.push(`${c.name}: ${response.status} with content-type ${type}`);
        } else {
          const problem = read.problemText(response.body);
          if (
            !problem.type?.startsWith("https://docs.entrada.dev/problems/") ||
            !problem.title ||
            !problem.detail ||
            problem.status !== response.status
          ) {
            failures.push(`${c.name}: incomplete problem ${response.body.slice(0, 200)}`);
          }
          if (
            problem.type?.endsWith("/validation-error") &&
            !(problem.errors ?? []).every(
              (e) => /^\/(body|query|header|path)(\/|$)/.test(e.pointer) && e.detail,
            )
          ) {
            failures.push(`${c.name}: validation error without pointers ${response.body.slice(0, 200)}`);
          }
          if (!response.headers["content-language"])
            failures.push(`${c.name}: problem without Content-Language`);
        }
      }
    }
    const after = JSON.stringify((await (await api.fetch("/__mock/snapshot")).json()).world);
    expect(failures, failures.slice(0, 30).join("\n")).toEqual([]);
    expect(after).toBe(before);
    expect(sent).toBeGreaterThan(operations.length * 10);
  });
});

describe("unparseable HTTP", () => {
  it("answers garbage on the socket with a 400 problem and a log id, and keeps serving", async () => {
    const url = new URL(api.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write("NOT HTTP AT ALL\r\n\r\n"));
      let data = "";
      socket.on("data", (chunk) => {
        data += chunk.toString();
      });
      socket.on("end", () => resolve(data));
      socket.on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toMatch(/x-log-id: log_[0-9A-Z]{26}/);
    expect(raw).toContain("application/problem+json");
    expect((await api.fetch("/__mock/clock")).status).toBe(200);
  });
});
