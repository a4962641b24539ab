/**
 * The non-shop sections end to end over real HTTP through the engine (contract validation of requests, and of
 * every response in "strict" mode: a response that breaks the contract becomes a 500 and fails these tests).
 */
import type { components } from "@entrada/openapi/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { badgeQr } from "../../src/sections/connections/index.ts";
import { type Api, bearer, expectEventsConform, readyCart, startApi } from "../helpers.ts";

let api: Api;
const SESSION = "sections-e2e";

beforeAll(async () => {
  api = await startApi({ session: SESSION });
});
afterAll(async () => {
  await api.close();
});

interface Ticket {
  id: string;
  quicode: string;
  ticketUrl: string;
  status: string;
  eventId: string;
  slotId: string;
}

type Schemas = components["schemas"];

/** A defined value, or a failed expectation. */
function must<T>(value: T | undefined | null, what: string): T {
  expect(value, what).toBeDefined();
  expect(value, what).not.toBeNull();
  return value as T;
}

async function json<T = Record<string, unknown>>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect([response.status, response.status === status ? "" : text]).toEqual([status, ""]);
  return (text ? JSON.parse(text) : null) as T;
}

async function setClock(iso: string): Promise<void> {
  await json(await api.fetch("/__mock/clock", { method: "POST", json: { set: iso } }), 200);
}

describe("sections end to end", () => {
  let token: string;
  let orderId: string;
  let tickets: Ticket[];
  let eventId: string;
  let slotStart: string;

  it("buys tickets in the shop (the fixture for the other sections)", async () => {
    token = await api.token("Shop TERP");
    const { cart, event } = await readyCart(api, token, { quantity: 2, eventIndex: 1 });
    const checkout = await json<Schemas["CheckoutCompleted"]>(
      await api.fetch(`/shop/v1/cart/${cart.id}/checkout`, {
        method: "POST",
        headers: bearer(token),
        json: { paymentMethod: { cardNumber: "4242424242424242" } },
      }),
      200,
    );
    orderId = checkout.order.id;
    tickets = checkout.order.tickets;
    eventId = event.id;
    slotStart = event.slots[0]?.startsAt ?? "";
    expect(tickets).toHaveLength(2);
    expect(tickets[0]?.ticketUrl).toMatch(
      new RegExp(
        `^${api.url}/assets/v1/tickets/${tickets[0]?.id}\\.pdf\\?mockSession=sections-e2e&expires=\\d+&signature=[A-Za-z0-9_-]{43}$`,
      ),
    );
  });

  it("admits, denies a second scan, lets the holder out and in again, and counts occupancy", async () => {
    // Doors open two hours before the slot; scanning now (a day early) is denied as not yet valid.
    const gates = await json<Schemas["GatePage"]>(
      await api.fetch(`/entrance/v1/gates?eventId=${eventId}`, { headers: bearer(token) }),
      200,
    );
    const main = must(
      gates.items.find((g) => g.direction === "both"),
      "a two-way gate",
    );
    const exit = must(
      gates.items.find((g) => g.direction === "exit"),
      "an exit gate",
    );
    const quicode = tickets[0]?.quicode as string;
    const scan = (gateId: string, body: Record<string, unknown>, path = "scans") =>
      api.fetch(`/entrance/v1/gates/${gateId}/${path}`, {
        method: "POST",
        headers: bearer(token, { "accept-language": "en-GB" }),
        json: body,
      });
    expect(await json(await scan(main.id, { quicode }), 201)).toMatchObject({
      result: "denied",
      reason: "not_yet_valid",
    });

    await setClock(new Date(Date.parse(slotStart) - 30 * 60_000).toISOString());
    token = await api.token("Shop TERP"); // the old token expired with the jump
    const admitted = await json(await scan(main.id, { quicode, deviceId: "gate-1" }), 201);
    expect(admitted).toMatchObject({
      result: "admitted",
      reasonText: "Welcome! Entry granted.",
      ticket: { id: tickets[0]?.id, status: "used" },
    });
    expect(await json(await scan(main.id, { quicode }), 201)).toMatchObject({
      result: "denied",
      reason: "already_used",
    });
    const shopTickets = await json<Schemas["TicketList"]>(
      await api.fetch(`/shop/v1/orders/${orderId}/tickets`, { headers: bearer(token) }),
      200,
    );
    expect(shopTickets.items.find((t) => t.id === tickets[0]?.id)?.status).toBe("used");
    expect(await json(await scan(exit.id, { quicode }, "exits"), 201)).toMatchObject({ result: "exited" });
    expect(await json(await scan(main.id, { quicode }), 201)).toMatchObject({ result: "admitted" });
    expect(await json(await scan(main.id, { quicode: "Q1.tkt_forged.AAAAAA" }), 201)).toMatchObject({
      reason: "unknown_quicode",
    });

    const occupancy = await json(
      await api.fetch(`/entrance/v1/events/${eventId}/occupancy`, { headers: bearer(token) }),
      200,
    );
    expect(occupancy).toMatchObject({ eventId, inside: 1, admittedTotal: 2, exitedTotal: 1, deniedTotal: 2 });
    const report = await json(
      await api.fetch(`/entrance/v1/reports/scans-by-category?eventId=${eventId}`, {
        headers: bearer(token),
      }),
      200,
    );
    expect(report.totals).toEqual({ admitted: 2, denied: 2, exited: 1 });
  });

  it("imports external tickets that are admissible at once", async () => {
    const imported = await json(
      await api.fetch("/external-entrance/v1/imports", {
        method: "POST",
        headers: bearer(token),
        json: {
          vendor: "eventbrite",
          tickets: [
            { externalId: "E-1", quicode: "EVB-E2E-1", eventId, holderName: "Luca Rossi" },
            { externalId: "E-2", quicode: "EVB-E2E-2", eventId: "evt_nope" },
          ],
        },
      }),
      202,
    );
    expect(imported.counts).toEqual({ accepted: 1, duplicate: 0, rejected: 1 });
    const gates = await json<Schemas["GatePage"]>(
      await api.fetch(`/entrance/v1/gates?eventId=${eventId}`, { headers: bearer(token) }),
      200,
    );
    const scan = await json(
      await api.fetch(`/entrance/v1/gates/${must(gates.items[0], "a gate").id}/scans`, {
        method: "POST",
        headers: bearer(token),
        json: { quicode: "EVB-E2E-1" },
      }),
      201,
    );
    expect(scan).toMatchObject({ result: "admitted", ticket: { source: "external", vendor: "eventbrite" } });
  });

  it("feeds the BI feed with the live order, tickets and scans next to the seeded history", async () => {
    const orders = await json(
      await api.fetch(`/bi/v1/odata/Orders?$filter=OrderId eq '${orderId}'`, { headers: bearer(token) }),
      200,
    );
    expect(orders.value).toEqual([
      expect.objectContaining({ OrderId: orderId, TicketCount: 2, Status: "paid", Channel: "api" }),
    ]);
    const admitted = await json<{ value: Array<{ Source: string }> }>(
      await api.fetch(
        `/bi/v1/odata/Tickets?$filter=FirstAdmittedAt ne null and IssuedAt ge ${new Date(Date.now() - 86_400_000).toISOString()}&$select=TicketId,Source&$orderby=TicketId`,
        {
          headers: bearer(token),
        },
      ),
      200,
    );
    expect(admitted.value.map((t: { Source: string }) => t.Source).sort()).toEqual(["external", "shop"]);
    const page = await api.fetch("/bi/v1/odata/Entrances?$count=true", {
      headers: bearer(token, { prefer: "odata.maxpagesize=100" }),
    });
    expect(page.headers.get("odata-version")).toBe("4.0");
    expect(page.headers.get("preference-applied")).toBe("odata.maxpagesize=100");
    const body = await json(page, 200);
    expect(body["@odata.count"]).toBeGreaterThan(1000);
    expect(body["@odata.nextLink"]).toMatch(new RegExp(`^${api.url}/bi/v1/odata/Entrances\\?`));
    const bad = await api.fetch("/bi/v1/odata/Orders?$filter=Totl gt 1", { headers: bearer(token) });
    expect(bad.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await json(bad, 400)).toMatchObject({ error: { code: "UnknownProperty", target: "$filter" } });
    const metadata = await api.fetch("/bi/v1/odata/$metadata", { headers: bearer(token) });
    expect(metadata.headers.get("content-type")).toMatch(/^application\/xml/);
    expect(await metadata.text()).toContain('<EntitySet Name="Orders"');
  });

  it("serves the ticket PDF, the receipt, images and the theme", async () => {
    const pdf = await api.fetch(new URL(tickets[1]?.ticketUrl as string).pathname, {
      headers: bearer(token),
    });
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 8))).toBe("%PDF-1.7");
    const receipt = await api.fetch(`/assets/v1/orders/${orderId}/receipt`, {
      headers: bearer(token, { "accept-language": "it-CH" }),
    });
    expect([receipt.status, receipt.headers.get("content-language")]).toEqual([200, "it-CH"]);
    const theme = await json<Schemas["Theme"]>(
      await api.fetch(`/assets/v1/theme?eventId=${eventId}&channel=widget`, { headers: bearer(token) }),
      200,
    );
    expect(theme.resolvedFrom.map((l: { level: string }) => l.level)).toEqual([
      "event",
      "venue",
      "channel",
      "default",
    ]);
    const banner = await api.fetch(new URL(must(theme.bannerUrl, "bannerUrl")).pathname, {
      headers: bearer(token),
    });
    expect(banner.headers.get("content-type")).toBe("image/svg+xml");
    const images = await json<Schemas["ImagePage"]>(
      await api.fetch("/assets/v1/images?kind=image", { headers: bearer(token) }),
      200,
    );
    const photo = await api.fetch(`/assets/v1/images/${must(images.items[0], "an image").id}?width=320`, {
      headers: bearer(token, { accept: "image/png" }),
    });
    expect(photo.headers.get("content-type")).toBe("image/png");
    const cached = await api.fetch(`/assets/v1/images/${must(images.items[0], "an image").id}?width=320`, {
      headers: bearer(token, { accept: "image/png", "if-none-match": photo.headers.get("etag") as string }),
    });
    expect(cached.status).toBe(304);
  });

  it("validates survey responses against the dynamic form", async () => {
    const event = await json(
      await api.fetch(`/shop/v1/discovery/events/${eventId}`, { headers: bearer(token) }),
      200,
    );
    const surveyId = (event.surveyId as string | null) ?? "srv_festival";
    const survey = await json<Schemas["Survey"]>(
      await api.fetch(`/survey/v1/surveys/${surveyId}`, {
        headers: bearer(token, { "accept-language": "fr-CH" }),
      }),
      200,
    );
    expect(survey.questions.length).toBeGreaterThan(0);
    const invalid = await api.fetch(`/survey/v1/surveys/${surveyId}/responses`, {
      method: "POST",
      headers: bearer(token),
      json: { answers: {} },
    });
    expect(invalid.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const problem = await json<Schemas["ValidationProblem"]>(invalid, 422);
    expect(problem.type).toBe("https://docs.entrada.dev/problems/unprocessable");
    expect(problem.errors.length).toBeGreaterThan(0);
    const answers =
      surveyId === "srv_festival"
        ? { qst_festSource: "friends", qst_festNewsletter: false }
        : { qst_confCompany: "Muster AG", qst_confRole: "product", qst_confDiet: "none" };
    await json(
      await api.fetch(`/survey/v1/surveys/${surveyId}/responses`, {
        method: "POST",
        headers: bearer(token),
        json: { answers, orderId },
      }),
      201,
    );
  });

  it("connects badges and manages webhook subscriptions fed by the events above", async () => {
    const first = await json(
      await api.fetch("/connections/v1/scans", {
        method: "POST",
        headers: bearer(token),
        json: { scannerBadgeId: "bdg_anna", scannedBadgeQr: badgeQr("bdg_luca") },
      }),
      201,
    );
    expect(first.mode).toBe("one-directional");
    const back = await json(
      await api.fetch("/connections/v1/scans", {
        method: "POST",
        headers: bearer(token),
        json: { scannerBadgeId: "bdg_luca", scannedBadgeQr: badgeQr("bdg_anna") },
      }),
      201,
    );
    expect(back.mode).toBe("mutual");

    const sub = await json(
      await api.fetch("/webhooks/v1/subscriptions", {
        method: "POST",
        headers: bearer(token),
        json: {
          url: "http://127.0.0.1:9/hooks",
          eventTypes: ["entrance.admitted", "entrance.denied"],
          culture: "en-GB",
        },
      }),
      201,
    );
    const gates = await json<Schemas["GatePage"]>(
      await api.fetch(`/entrance/v1/gates?eventId=${eventId}`, { headers: bearer(token) }),
      200,
    );
    await json(
      await api.fetch(`/entrance/v1/gates/${must(gates.items[0], "a gate").id}/scans`, {
        method: "POST",
        headers: bearer(token),
        json: { quicode: "nope" },
      }),
      201,
    );
    const deliveries = await json<Schemas["WebhookDeliveryPage"]>(
      await api.fetch(`/webhooks/v1/subscriptions/${sub.id}/deliveries`, { headers: bearer(token) }),
      200,
    );
    expect(deliveries.items).toEqual([
      expect.objectContaining({ eventType: "entrance.denied", status: "pending", test: false }),
    ]);
    expect(must(deliveries.items[0], "a delivery").payload.data).toMatchObject({
      reasonText: "Unknown code. Please go to the box office.",
    });
    const test = await json(
      await api.fetch(`/webhooks/v1/subscriptions/${sub.id}/test`, {
        method: "POST",
        headers: bearer(token),
        json: { eventType: "cart.completed" },
      }),
      202,
    );
    expect(test).toMatchObject({ test: true, eventType: "cart.completed" });
    const rotated = await json(
      await api.fetch(`/webhooks/v1/subscriptions/${sub.id}/rotate-secret`, {
        method: "POST",
        headers: bearer(token),
        json: {},
      }),
      200,
    );
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(sub.secret);
  });

  it("emitted only events that conform to the contract's webhook payload schemas", async () => {
    expect(await expectEventsConform(api, SESSION)).toBeGreaterThan(5);
  });
});
