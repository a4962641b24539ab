/**
 * The response-contract checker rule by rule, on hand-made answers: each rule fires on what breaks it, with its
 * pointer, and a conforming answer gives nothing.
 */
import { describe, expect, it } from "vitest";
import { ajvSchemaCompiler } from "../../src/compiler/ajv.ts";
import { ContractChecker, contractHeader, type Exchange } from "../../src/core/contract.ts";
import { entradaDocument } from "../../src/index.ts";

const checker = new ContractChecker(entradaDocument, ajvSchemaCompiler(entradaDocument));
const venue = {
  id: "ven_01JD3XQ2R4S6T8V0W2X4Y6Z8A0",
  name: "Kaufleuten",
  city: "Zürich",
  timeZone: "Europe/Zurich",
};
const ok: Exchange = {
  method: "GET",
  path: "/shop/v1/discovery/venues",
  status: 200,
  headers: {
    "content-type": "application/json",
    "x-log-id": "log_01JD3Z9B7C2D4E6F8G0H1J2K3M",
    "ratelimit-limit": "600",
  },
  body: JSON.stringify({ items: [venue], nextCursor: null }),
};

function rules(exchange: Partial<Exchange>) {
  return checker.check({ ...ok, ...exchange }).violations.map((v) => `${v.rule} ${v.pointer}`);
}

describe("ContractChecker", () => {
  it("finds nothing in a conforming answer", () => {
    expect(rules({})).toEqual([]);
    expect(contractHeader([])).toBe("ok");
  });

  it("route: a path of no operation", () => {
    expect(rules({ path: "/shop/v1/nowhere" })).toEqual(["route /path"]);
  });

  it("status: a status the operation does not declare", () => {
    expect(rules({ status: 418 })).toEqual(["status /status"]);
  });

  it("media-type: an undeclared Content-Type, or no body where one is declared", () => {
    expect(rules({ headers: { ...ok.headers, "content-type": "text/csv" } })).toEqual([
      "media-type /header/content-type",
    ]);
    expect(rules({ body: null })).toEqual(["media-type /body"]);
    expect(rules({ method: "HEAD", body: null })).toEqual([]);
  });

  it("json: a body that is not JSON where JSON is declared", () => {
    expect(rules({ body: "<html>" })).toEqual(["json /body"]);
  });

  it("schema: one violation per failing pointer, missing and mistyped members", () => {
    const body = JSON.stringify({ items: [{ id: venue.id, city: 7 }], nextCursor: null });
    expect(rules({ body }).sort()).toEqual([
      "schema /body/items/0/city",
      "schema /body/items/0/name",
      "schema /body/items/0/timeZone",
    ]);
  });

  it("header: a documented header whose value breaks its schema", () => {
    expect(rules({ headers: { ...ok.headers, "ratelimit-limit": "many" } })).toEqual([
      "header /header/ratelimit-limit",
    ]);
    expect(rules({ headers: { ...ok.headers, "x-log-id": "not a log id" } })).toEqual([
      "header /header/x-log-id",
    ]);
  });

  it("problem: a problem whose status member is not the HTTP status", () => {
    const problem = { type: "https://docs.entrada.dev/problems/not-found", title: "Not found", status: 400 };
    const answer = {
      path: "/shop/v1/discovery/events/evt_x",
      headers: { "content-type": "application/problem+json" },
    };
    expect(rules({ ...answer, status: 404, body: JSON.stringify({ ...problem, status: 404 }) })).toEqual([]);
    expect(rules({ ...answer, status: 404, body: JSON.stringify(problem) })).toEqual([
      "problem /body/status",
    ]);
  });

  it("truncated bodies: status, headers and media type only", () => {
    expect(rules({ body: '{"items": [', truncated: true })).toEqual([]);
    expect(rules({ status: 418, body: '{"items": [', truncated: true })).toEqual(["status /status"]);
  });

  it("X-Entrada-Contract lists at most 8, in ASCII", () => {
    const many = Array.from({ length: 10 }, (_, i) => ({
      rule: "schema" as const,
      pointer: `/body/é${i}`,
      message: "",
    }));
    const header = contractHeader(many);
    expect(header).toMatch(/^schema \/body\/%C3%A90, /);
    expect(header.endsWith("+2 more")).toBe(true);
    expect(/^[\x20-\x7e]*$/.test(header)).toBe(true);
  });
});
