import { describe, expect, it } from "vitest";
import { ajvSchemaCompiler } from "../../src/compiler/ajv.ts";
import type { OpenApiDocument } from "../../src/core/document.ts";
import { createMockCore } from "../../src/core/engine.ts";
import type { AnyHandler, SectionModule } from "../../src/core/section.ts";
import { defineSection, dynamicHandler } from "../../src/core/section.ts";
import type { MockRequest } from "../../src/core/types.ts";

/** A tiny document: one public GET whose response must be {n: integer}. */
const doc: OpenApiDocument = {
  openapi: "3.1.0",
  paths: {
    "/things/{id}": {
      get: {
        operationId: "getEvent",
        security: [],
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^t_[a-z]+$" } },
        ],
        responses: {
          200: {
            description: "ok",
            content: {
              "application/json": {
                schema: { type: "object", required: ["n"], properties: { n: { type: "integer" } } },
              },
            },
          },
          "4XX": {
            description: "problem",
            content: { "application/problem+json": { schema: { type: "object" } } },
          },
        },
      },
    },
  },
};

/** The tiny document reuses the contract's operationId `getEvent`; its bodies are not Events, so dynamic. */
function section(body: unknown): SectionModule {
  return defineSection({
    name: "things",
    initialState: () => ({}),
    handlers: { getEvent: dynamicHandler(() => ({ status: 200, body })) },
  });
}

/** An engine over the tiny document whose one operation runs `handler`; emitted event types land in `seen`. */
function coreWithHandler(handler: AnyHandler, seen: string[]) {
  return createMockCore({
    document: doc,
    schemaCompiler: ajvSchemaCompiler,
    sections: [
      defineSection({
        name: "things",
        initialState: () => ({}),
        handlers: { getEvent: dynamicHandler(handler) },
      }),
    ],
    onEvent: (event) => seen.push(event.type),
    onError: () => {},
  });
}

const get = (path: string): MockRequest => ({
  method: "GET",
  url: `http://mock${path}`,
  headers: {},
  body: null,
});

describe("response validation mode", () => {
  it("passes conforming responses through", async () => {
    const core = createMockCore({
      document: doc,
      schemaCompiler: ajvSchemaCompiler,
      sections: [section({ n: 1 })],
      validateResponses: "strict",
    });
    const response = await core.handle(get("/things/t_a"));
    expect(response.status).toBe(200);
    expect(core.responseViolations).toEqual([]);
  });

  it("turns a response that breaks the document into a 500 naming the violation (strict) or records it (report)", async () => {
    const strict = createMockCore({
      document: doc,
      schemaCompiler: ajvSchemaCompiler,
      sections: [section({ n: "one" })],
      validateResponses: "strict",
    });
    const response = await strict.handle(get("/things/t_a"));
    expect(response.status).toBe(500);
    const problem = JSON.parse(String(response.body));
    expect(problem.violations.join(" ")).toMatch(/schema \/body\/n: must be integer/);
    expect(problem.originalStatus).toBe(200);

    const report = createMockCore({
      document: doc,
      schemaCompiler: ajvSchemaCompiler,
      sections: [section({ n: "one" })],
      validateResponses: "report",
    });
    expect((await report.handle(get("/things/t_a"))).status).toBe(200);
    expect(report.responseViolations).toHaveLength(1);
    expect(report.responseViolations[0]?.operationId).toBe("getEvent");
  });

  it("validates path parameters against their schema before the handler runs", async () => {
    let calls = 0;
    const core = coreWithHandler(() => ({ status: 200, body: { n: ++calls } }), []);
    const response = await core.handle(get("/things/NOPE"));
    expect(response.status).toBe(400);
    expect(JSON.parse(String(response.body)).errors[0].pointer).toBe("/path/id");
    expect(calls).toBe(0);
  });

  it("gives each request its own URL: what one handler does to ctx.url reaches no later request", async () => {
    const seen: Array<{ href: string; mark: string | null; baseUrl: string | undefined }> = [];
    const core = coreWithHandler((ctx) => {
      seen.push({ href: ctx.url.href, mark: ctx.url.searchParams.get("mark"), baseUrl: ctx.baseUrl });
      ctx.url.searchParams.set("mark", "changed");
      return { status: 200, body: { n: seen.length } };
    }, []);
    for (let i = 0; i < 2; i++) expect((await core.handle(get("/things/t_a"))).status).toBe(200);
    expect(seen).toEqual([
      { href: "http://mock/things/t_a", mark: null, baseUrl: "http://mock" },
      { href: "http://mock/things/t_a", mark: null, baseUrl: "http://mock" },
    ]);
  });

  it("gives requests log ids that sort in the order they came, answers and problems alike", async () => {
    const core = coreWithHandler(() => ({ status: 200, body: { n: 1 } }), []);
    const ids: string[] = [];
    for (let i = 0; i < 64; i++) {
      const response = await core.handle(get(i % 4 === 3 ? "/things/NOPE" : "/things/t_a"));
      ids.push(String(response.headers["x-log-id"]));
    }
    for (const id of ids) expect(id).toMatch(/^log_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it("answers 501 for operations no section implements, and lists them", async () => {
    const core = createMockCore({ document: doc, schemaCompiler: ajvSchemaCompiler, sections: [] });
    expect(core.unimplemented).toEqual(["getEvent"]);
    expect((await core.handle(get("/things/t_a"))).status).toBe(501);
  });

  it("keeps events of a deliberate problem but drops those of a crash", async () => {
    const seen: string[] = [];
    const core = coreWithHandler((ctx) => {
      ctx.emit(ctx.params.id === "t_crash" ? "cart.expired" : "cart.created", {});
      if (ctx.params.id === "t_crash") throw new Error("boom");
      return ctx.problem("conflict", "nope");
    }, seen);
    expect((await core.handle(get("/things/t_declined"))).status).toBe(409);
    const crash = await core.handle(get("/things/t_crash"));
    expect(crash.status).toBe(500);
    expect(JSON.parse(String(crash.body)).type).toMatch(/internal-error$/);
    expect(seen).toEqual(["cart.created"]);
  });

  it("answers at once when no stage waits, and through a promise when the handler awaits (same outcomes)", async () => {
    const seen: string[] = [];
    const core = coreWithHandler((ctx) => {
      const id = ctx.params.id ?? "";
      if (!id.startsWith("t_later")) return { status: 200, body: { n: 1 } };
      ctx.emit(id === "t_latercrash" ? "cart.expired" : "cart.created", {});
      return Promise.resolve().then(() => {
        if (id === "t_latercrash") throw new Error("boom");
        if (id === "t_laterproblem") return ctx.problem("conflict", "nope");
        return { status: 200, body: { n: 2 } };
      });
    }, seen);
    const now = core.respond(get("/things/t_now"));
    expect(now).not.toBeInstanceOf(Promise);
    expect(JSON.parse(String((now as Awaited<typeof now>).body))).toEqual({ n: 1 });
    const later = core.respond(get("/things/t_later"));
    expect(later).toBeInstanceOf(Promise);
    expect(JSON.parse(String((await later).body))).toEqual({ n: 2 });
    expect((await core.respond(get("/things/t_laterproblem"))).status).toBe(409);
    const crash = await core.respond(get("/things/t_latercrash"));
    expect(crash.status).toBe(500);
    // A problem keeps its events, a crash drops them, whether the handler answered at once or later.
    expect(seen).toEqual(["cart.created", "cart.created"]);
    // A stage that refuses the request answers at once too.
    const refused = core.respond(get("/things/NOPE"));
    expect(refused).not.toBeInstanceOf(Promise);
    expect((refused as Awaited<typeof refused>).status).toBe(400);
  });

  it("answers HEAD like GET without a body, and plain OPTIONS with 405 + Allow", async () => {
    const core = createMockCore({
      document: doc,
      schemaCompiler: ajvSchemaCompiler,
      sections: [section({ n: 1 })],
    });
    const head = await core.handle({ ...get("/things/t_a"), method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    const options = await core.handle({ ...get("/things/t_a"), method: "OPTIONS" });
    expect(options.status).toBe(405);
    expect(options.headers.allow).toBe("GET, HEAD, OPTIONS");
  });
});

describe("content negotiation", () => {
  it("answers 406 only when Accept allows none of the documented success types", async () => {
    const core = createMockCore({
      document: doc,
      schemaCompiler: ajvSchemaCompiler,
      sections: [section({ n: 1 })],
    });
    const withAccept = (accept: string) => core.handle({ ...get("/things/t_a"), headers: { accept } });
    for (const ok of [
      "application/json",
      "application/*",
      "*/*",
      "text/html, application/json;q=0.5",
      "application/json, text/plain, */*",
    ]) {
      expect((await withAccept(ok)).status, ok).toBe(200);
    }
    for (const refused of ["text/html", "application/xml", "application/json;q=0", "image/*"]) {
      const response = await withAccept(refused);
      expect(response.status, refused).toBe(406);
      expect(JSON.parse(String(response.body)).errors[0].pointer).toBe("/header/accept");
    }
  });
});

describe("robustness", () => {
  it("never throws: a crashing developer control becomes a 500 problem", async () => {
    const errors: unknown[] = [];
    const core = createMockCore({
      document: doc,
      schemaCompiler: ajvSchemaCompiler,
      sections: [],
      controls: [
        {
          method: "GET",
          path: "/boom",
          description: "crashes",
          handler: () => {
            throw new Error("boom");
          },
        },
      ],
      onError: (error) => errors.push(error),
    });
    const response = await core.handle(get("/__mock/boom"));
    expect(response.status).toBe(500);
    expect(JSON.parse(String(response.body)).type).toMatch(/internal-error$/);
    expect(errors).toHaveLength(1);
  });
});

describe("header parameters", () => {
  /** The tiny document's operation with a declared header (mixed case, as documents write them). */
  const withHeader: OpenApiDocument = {
    ...doc,
    paths: {
      "/things/{id}": {
        get: {
          operationId: "getEvent",
          security: [],
          responses: {
            200: {
              description: "ok",
              content: {
                "application/json": { schema: { type: "object", properties: { n: { type: "integer" } } } },
              },
            },
          },
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^t_[a-z]+$" } },
            {
              name: "X-Tenant",
              in: "header",
              required: true,
              schema: { type: "string", pattern: "^ten_[0-9]+$" },
            },
            { name: "X-Limit", in: "header", required: false, schema: { type: "integer", maximum: 5 } },
          ],
        },
      },
    },
  };

  it("judges the declared headers among any others a request carries: missing, malformed, coerced", async () => {
    const core = createMockCore({
      document: withHeader,
      schemaCompiler: ajvSchemaCompiler,
      sections: [section({ n: 1 })],
    });
    const others = { "user-agent": "test", accept: "application/json", "x-other": "???", cookie: "a=b" };
    const send = (headers: Record<string, string>) =>
      core.handle({ ...get("/things/t_a"), headers: { ...others, ...headers } });
    const pointers = async (headers: Record<string, string>) => {
      const response = await send(headers);
      return response.status === 200
        ? []
        : JSON.parse(String(response.body)).errors.map((e: { pointer: string }) => e.pointer);
    };
    expect(await pointers({ "x-tenant": "ten_42" })).toEqual([]);
    expect(await pointers({ "x-tenant": "ten_42", "x-limit": "5" })).toEqual([]);
    expect(await pointers({})).toEqual(["/header/x-tenant"]);
    expect(await pointers({ "x-tenant": "acme" })).toEqual(["/header/x-tenant"]);
    expect(await pointers({ "x-tenant": "ten_1", "x-limit": "6" })).toEqual(["/header/x-limit"]);
    expect(await pointers({ "x-tenant": "ten_1", "x-limit": "many" })).toEqual(["/header/x-limit"]);
  });
});
