/**
 * A deprecated operation as integrators meet it: the mock (msw) serves a fixture contract with `getEvent`
 * deprecated (nothing real is deprecated), answers with `Deprecation`, `Sunset` and `Link`; the SDK reads them
 * into a `DeprecationNotice` and its logger warns once per operation, however often it is called.
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
  const eventId = events.data.items[0]?.id as string;
  for (let i = 0; i < 3; i++) {
    const { response } = await client.shop.getEvent.orThrow({ params: { path: { eventId } } });
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
