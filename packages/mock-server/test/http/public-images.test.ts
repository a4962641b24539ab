/**
 * Event images load offline and without a token: the shop's `imageUrl` points at the mock's own `getImage`, which
 * the contract makes public (`security` has an anonymous `{}` alternative on `getImage` and `getIcon` only), so the
 * embedded shop's `<img src>` — no Authorization header, an image Accept — shows them. Everything else under
 * `/assets/v1` stays protected.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ajvSchemaCompiler } from "../../src/compiler/ajv.ts";
import { createEntradaMock } from "../../src/index.ts";
import { startMockServer } from "../../src/node/index.ts";
import { eventBannerId } from "../../src/sections/assets/index.ts";
import { type Api, bearer, bodyOf, startApi } from "../helpers.ts";

/** What Chromium sends for an `<img>`; Firefox and Safari send similar lists. */
const IMG_ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
/** An `<img>` request: no credentials, no mock session header, an image Accept. */
const img = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers: { accept: IMG_ACCEPT, ...headers } });

interface EventSummary {
  id: string;
  imageUrl: string;
}

async function allEvents(api: Api, token: string): Promise<EventSummary[]> {
  const events: EventSummary[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const response = await api.fetch(`/shop/v1/discovery/events?limit=10${query}`, {
      headers: bearer(token),
    });
    expect(response.status).toBe(200);
    const page = await bodyOf(response, "listEvents");
    events.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return events;
}

describe("public event images (standalone server)", () => {
  let api: Api;
  let token: string;
  let events: EventSummary[];

  beforeAll(async () => {
    api = await startApi();
    token = await api.token();
    events = await allEvents(api, token);
  });
  afterAll(() => api.close());

  it("points every event's imageUrl at the mock's own banner for that event", async () => {
    expect(events.length).toBe(24);
    for (const event of events) {
      const url = new URL(event.imageUrl);
      expect(url.origin).toBe(api.url);
      expect(url.pathname).toBe(`/assets/v1/images/${eventBannerId(event.id)}`);
      expect(url.search).toBe("");
    }
    // The event detail carries the same URL.
    const first = events[0] as EventSummary;
    const detail = (await (
      await api.fetch(`/shop/v1/discovery/events/${first.id}`, { headers: bearer(token) })
    ).json()) as EventSummary;
    expect(detail.imageUrl).toBe(first.imageUrl);
  });

  it("serves each imageUrl to an <img>-like request with no Authorization: 200 image/*, small, cacheable", async () => {
    for (const event of events) {
      const response = await img(event.imageUrl);
      expect(response.status, `${event.imageUrl}: ${await response.clone().text()}`).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^image\//);
      // The banners are SVG (sharp at any width); an <img> renders them without scripts.
      expect(response.headers.get("content-type")).toBe("image/svg+xml");
      const body = new Uint8Array(await response.arrayBuffer());
      expect(new TextDecoder().decode(body.slice(0, 4))).toBe("<svg");
      // Decorative: no text baked in (it would not follow Accept-Language and is cut off when a host crops).
      expect(new TextDecoder().decode(body)).not.toContain("<text");
      expect(body.length).toBeGreaterThan(200);
      expect(body.length).toBeLessThan(4096);
      expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
      const tag = response.headers.get("etag") as string;
      expect(tag).toMatch(/^"[0-9a-f]+"$/);
      // A browser revalidating its cached copy gets 304.
      expect((await img(event.imageUrl, { "if-none-match": tag })).status).toBe(304);
    }
    // Banners differ per event (their own colours and pattern).
    const bodies = await Promise.all(events.slice(0, 4).map(async (e) => (await img(e.imageUrl)).text()));
    expect(new Set(bodies).size).toBe(4);
  });

  it("gives an <img> the PNG, and answers an Accept that rules PNG out with a 406 problem", async () => {
    for (const id of ["ast_defaultBanner", "ast_foyer"]) {
      const png = await img(`${api.url}/assets/v1/images/${id}`);
      expect(png.status).toBe(200);
      expect(png.headers.get("content-type")).toBe("image/png");
      expect(Array.from(new Uint8Array(await png.arrayBuffer()).slice(1, 4))).toEqual([0x50, 0x4e, 0x47]);
    }
    const refused = await fetch(`${api.url}/assets/v1/images/ast_foyer`, {
      headers: { accept: "image/webp" },
    });
    expect(refused.status).toBe(406);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
  });

  it("serves icons anonymously too", async () => {
    const svg = await img(`${api.url}/assets/v1/icons/calendar`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    const png = await img(`${api.url}/assets/v1/icons/calendar?format=png&size=24`);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
  });

  it("still checks a token that is sent: a valid one works, an invalid one is 401 invalid_token", async () => {
    const url = events[0]?.imageUrl as string;
    expect((await img(url, bearer(token))).status).toBe(200);
    const invalid = await img(url, bearer("at_not-a-token"));
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("keeps metadata, listings, theme, ticket PDF and receipt protected: an <img>-like fetch is 401", async () => {
    const bannerId = eventBannerId(events[0]?.id as string);
    for (const path of [
      `/assets/v1/images/${bannerId}/metadata`,
      "/assets/v1/images",
      "/assets/v1/icons",
      "/assets/v1/theme",
      "/assets/v1/tickets/tkt_01JD3Y7B2C3D4E5F6G7H8J9K0M.pdf",
      "/assets/v1/orders/ord_01JD3Y7B2C3D4E5F6G7H8J9K0M/receipt",
      "/shop/v1/discovery/events",
    ]) {
      const response = await img(`${api.url}${path}`);
      expect(response.status, path).toBe(401);
      expect(response.headers.get("content-type"), path).toContain("application/problem+json");
      expect(response.headers.get("www-authenticate"), path).toBe('Bearer realm="entrada"');
    }
  });

  it("answers an unknown image with 404, not 401", async () => {
    const response = await img(`${api.url}/assets/v1/images/ast_nope`);
    expect(response.status).toBe(404);
  });
});

describe("public event images under a base path, and seeded image URLs", () => {
  it("links the banner below the base path and serves it there", async () => {
    const core = createEntradaMock({
      basePath: "/api",
      rateLimit: false,
      validateResponses: "strict",
      schemaCompiler: ajvSchemaCompiler,
    });
    const server = await startMockServer({ core, port: 0, webhooks: false });
    try {
      const tokenResponse = await fetch(`${server.url}/api/connect/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "grant_type=client_credentials&scope=Shop",
      });
      const { access_token } = await bodyOf(tokenResponse, "createToken");
      const page = await bodyOf(
        await fetch(`${server.url}/api/shop/v1/discovery/events?limit=1`, { headers: bearer(access_token) }),
        "listEvents",
      );
      const event = page.items[0] as EventSummary;
      expect(event.imageUrl).toBe(`${server.url}/api/assets/v1/images/${eventBannerId(event.id)}`);
      const response = await img(event.imageUrl);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/svg+xml");
    } finally {
      await server.close();
    }
  });

  it("keeps an imageUrl the seed gives", async () => {
    const api = await startApi({ session: "seeded-image" });
    try {
      const token = await api.token();
      const first = (await allEvents(api, token))[0] as EventSummary;
      const seed = {
        shop: {
          catalogue: {
            venues: [{ id: "ven_x", name: "Halle", city: "Basel" }],
            events: [
              {
                id: "evt_x",
                slug: "x",
                venueId: "ven_x",
                name: "X",
                summary: "X",
                description: "X",
                imageUrl: "https://cdn.example.org/x.jpg",
                slots: [
                  {
                    id: "slt_x",
                    startsAt: "2027-01-01T18:00:00Z",
                    endsAt: "2027-01-01T20:00:00Z",
                    capacity: 10,
                  },
                ],
                pricingAssortments: [],
                surveyId: null,
              },
            ],
          },
        },
      };
      expect((await api.fetch("/__mock/seed", { method: "POST", json: seed })).status).toBe(200);
      const [event] = await allEvents(api, token);
      expect(event?.imageUrl).toBe("https://cdn.example.org/x.jpg");
      expect(first.imageUrl).not.toBe(event?.imageUrl);
    } finally {
      await api.close();
    }
  });
});
