/**
 * A deprecated operation as integrators meet it: the mock (msw) serves a fixture contract with `getEvent`
 * deprecated (nothing real is deprecated), answers with `Deprecation`, `Sunset` and `Link`; the SDK reads them
 * into each result's `meta` (and any error's fields), into a `DeprecationNotice`, and its logger warns once per
 * operation, however often it is called.
 */

import { createMock } from "@entrada/mock-server/msw";
import contract from "@entrada/openapi/openapi.json" with { type: "json" };
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createClient, deprecationNotice } from "../../src/index.ts";
import { type LogFields, logger } from "../../src/logger.ts";

type Obj = Record<string, unknown>;
const BASE = "https://api.deprecated.entrada.test";
const document = structuredClone(contract) as unknown as {
  paths: Record<string, Record<string, Obj>>;
  info: Obj;
};
Object.assign(document.paths["/shop/v1/discovery/events/{eventId}"]?.get as Obj, {
  deprecated: true,
  "x-deprecated-at": "2026-11-01",
  "x-sunset": "2027-06-01",
});
const mock = createMock({ baseUrl: BASE, document: document as never });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterAll(() => server.close());

it("reads the notice and warns once per deprecated operation", async () => {
  const warnings: [string, LogFields][] = [];
  const quiet = () => {};
  const client = createClient({
    baseUrl: BASE,
    clientId: "entrada-demo",
    clientSecret: "demo-secret",
    scope: "Shop",
    middleware: [
      logger({
        level: "warn",
        sink: { debug: quiet, info: quiet, error: quiet, warn: (m, f) => warnings.push([m, f]) },
      }),
    ],
  });
  const events = await client.shop.listEvents.orThrow({ params: { query: { limit: 1 } } });
  expect(deprecationNotice(events.response.headers)).toBeUndefined();
  expect(events.meta).toMatchObject({ deprecation: undefined, sunset: undefined });
  const eventId = events.data.items[0]?.id as string;
  for (let i = 0; i < 3; i++) {
    const { response, meta } = await client.shop.getEvent.orThrow({ params: { path: { eventId } } });
    // The result says so itself: the headers as sent (RFC 9745's `@<seconds>`, RFC 8594's HTTP date).
    expect(meta).toMatchObject({
      deprecation: `@${Date.parse("2026-11-01T00:00:00Z") / 1000}`,
      sunset: new Date("2027-06-01T00:00:00Z").toUTCString(),
    });
    expect(deprecationNotice(response.headers)).toEqual({
      deprecatedAt: new Date("2026-11-01T00:00:00Z"),
      sunset: new Date("2027-06-01T00:00:00Z"),
      link: document.info["x-changelog"],
    });
  }
  expect(warnings).toHaveLength(1);
  expect(warnings[0]?.[0]).toBe(
    `entrada: getEvent is deprecated since 2026-11-01; it may stop working after 2027-06-01 (${document.info["x-changelog"]})`,
  );
  expect(warnings[0]?.[1]).toMatchObject({
    operationId: "getEvent",
    deprecation: { link: document.info["x-changelog"] },
  });
});

it("carries the deprecation on an error of a deprecated operation too", async () => {
  // A server that announces the deprecation on its problem answers as well.
  const headers = {
    "content-type": "application/problem+json",
    deprecation: "@1793491200",
    sunset: "Tue, 01 Jun 2027 00:00:00 GMT",
  };
  const problem = { type: "https://docs.entrada.test/problems/not-found", title: "Not found", status: 404 };
  const client = createClient({
    baseUrl: BASE,
    accessToken: "t",
    fetch: async () => new Response(JSON.stringify(problem), { status: 404, headers }),
  });
  const { error, meta } = await client.shop.getEvent({ params: { path: { eventId: "evt_NoSuchEvent" } } });
  expect(error?.status).toBe(404);
  expect(meta).toMatchObject({ deprecation: "@1793491200", sunset: headers.sunset });
  expect(error).toMatchObject({ deprecation: "@1793491200", sunset: headers.sunset });
  expect(JSON.parse(JSON.stringify(meta))).toMatchObject({ deprecation: "@1793491200" });
});
