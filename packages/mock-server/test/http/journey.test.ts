import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseQuicode } from "../../src/sections/shop/quicode.ts";
import {
  type Api,
  bearer,
  type Cart,
  type EventDetail,
  expectEventsConform,
  readyCart,
  startApi,
} from "../helpers.ts";

let api: Api;
let token: string;

beforeAll(async () => {
  api = await startApi();
  token = await api.token();
});
afterAll(() => api.close());

describe("shop journey over HTTP (card)", () => {
  it("serves the system configuration and venues", async () => {
    const config = await (
      await api.fetch("/shop/v1/system/configuration", { headers: bearer(token) })
    ).json();
    expect(config.cultures.map((c: { tag: string }) => c.tag)).toEqual(["de-CH", "fr-CH", "it-CH", "en-GB"]);
    expect(config.paymentProviders.map((p: { kind: string }) => p.kind).sort()).toEqual(["card", "redirect"]);
    expect(config.holdDurationSeconds).toBe(600);
    const venues = await (await api.fetch("/shop/v1/discovery/venues", { headers: bearer(token) })).json();
    expect(venues.items.length).toBeGreaterThanOrEqual(3);
  });

  it("lists at least 20 events, paginates with an opaque cursor, and filters by venue, slug and date", async () => {
    const all: Array<{ id: string; slug: string; venue: { id: string }; startsAt: string; endsAt: string }> =
      [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=7&cursor=${encodeURIComponent(cursor)}` : "?limit=7";
      const response = await api.fetch(`/shop/v1/discovery/events${query}`, { headers: bearer(token) });
      expect(response.status).toBe(200);
      const page = await response.json();
      expect(page.items.length).toBeLessThanOrEqual(7);
      all.push(...page.items);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(all.length).toBeGreaterThanOrEqual(20);
    expect(pages).toBe(Math.ceil(all.length / 7));
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(new Set(all.map((e) => e.venue.id)).size).toBeGreaterThanOrEqual(3);

    const venueId = all[3]?.venue.id ?? "";
    const byVenue = await (
      await api.fetch(`/shop/v1/discovery/events?venueId=${venueId}&limit=100`, { headers: bearer(token) })
    ).json();
    expect(byVenue.items.length).toBe(all.filter((e) => e.venue.id === venueId).length);

    const slug = all[5]?.slug ?? "";
    const bySlug = await (
      await api.fetch(`/shop/v1/discovery/events?slug=${slug}`, { headers: bearer(token) })
    ).json();
    expect(bySlug.items.map((e: { slug: string }) => e.slug)).toEqual([slug]);

    const first = all[0];
    const day = first?.startsAt.slice(0, 10) ?? "";
    const byDate = await (
      await api.fetch(`/shop/v1/discovery/events?dateFrom=${day}&dateTo=${day}&limit=100`, {
        headers: bearer(token),
      })
    ).json();
    expect(byDate.items.length).toBeGreaterThan(0);
    expect(byDate.items.length).toBeLessThan(all.length);
    for (const e of byDate.items)
      expect(e.startsAt.slice(0, 10) <= day && e.endsAt.slice(0, 10) >= day).toBe(true);

    const bad = await api.fetch("/shop/v1/discovery/events?cursor=not-a-cursor", { headers: bearer(token) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].pointer).toBe("/query/cursor");
  });

  it("buys two tickets with the succeeding test card: order, Quicodes, ticket links, receipt", async () => {
    const { cart, event } = await readyCart(api, token, { quantity: 2 });
    expect(cart.items[0]?.quantity).toBe(2);
    expect(cart.holdExpiresAt).not.toBeNull();
    const slotBefore = event.slots[0]?.available ?? 0;

    const response = await api.fetch(`/shop/v1/cart/${cart.id}/checkout`, {
      method: "POST",
      headers: bearer(token),
      json: { paymentMethod: { cardNumber: "4242424242424242" } },
    });
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result.status).toBe("completed");
    expect(result.order.tickets).toHaveLength(2);
    for (const ticket of result.order.tickets) {
      expect(parseQuicode(ticket.quicode)).toBe(ticket.id);
      const pdf = await fetch(ticket.ticketUrl, { headers: bearer(token) });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get("content-type")).toBe("application/pdf");
      expect(new TextDecoder().decode(await pdf.arrayBuffer()).startsWith("%PDF-")).toBe(true);
    }
    const receipt = await fetch(result.order.receiptUrl, { headers: bearer(token) });
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get("content-type")).toBe("application/pdf");
    // The mock also serves them without credentials, for links pasted into a browser.
    const open = await api.fetch(`/__mock/shop/tickets/${result.order.tickets[0].id}`);
    expect(open.headers.get("content-type")).toBe("application/pdf");

    const after = (await (
      await api.fetch(`/shop/v1/discovery/events/${event.id}`, { headers: bearer(token) })
    ).json()) as EventDetail;
    // The event was read before the items were added: the two sold seats are gone for good.
    expect(after.slots[0]?.available).toBe(slotBefore - 2);
    const sold = (await (
      await api.fetch(`/shop/v1/cart/${cart.id}`, { headers: bearer(token) })
    ).json()) as Cart;
    expect(sold.status).toBe("completed");
    expect(sold.orderId).toBe(result.order.id);

    const order = await (
      await api.fetch(`/shop/v1/orders/${result.order.id}`, { headers: bearer(token) })
    ).json();
    expect(order.tickets.map((t: { id: string }) => t.id)).toEqual(
      result.order.tickets.map((t: { id: string }) => t.id),
    );
    const tickets = await (
      await api.fetch(`/shop/v1/orders/${result.order.id}/tickets`, { headers: bearer(token) })
    ).json();
    expect(tickets.items).toHaveLength(2);

    const again = await api.fetch(`/shop/v1/cart/${cart.id}/checkout`, {
      method: "POST",
      headers: bearer(token),
      json: { paymentMethod: { cardNumber: "4242424242424242" } },
    });
    expect(again.status).toBe(409);
    expect((await again.json()).orderId).toBe(result.order.id);

    const events = await (await api.fetch("/__mock/events")).json();
    const types = events.items.map((e: { type: string }) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(["cart.created", "cart.locked", "payment.succeeded", "ticket.issued"]),
    );
    expect(types.filter((t: string) => t === "ticket.issued").length).toBeGreaterThanOrEqual(2);
    expect(await expectEventsConform(api)).toBeGreaterThan(5);
  });

  it("declines 4000000000000002 with 402, unlocks the cart and keeps the items", async () => {
    const { cart } = await readyCart(api, token, { quantity: 3 });
    const response = await api.fetch(`/shop/v1/cart/${cart.id}/checkout`, {
      method: "POST",
      headers: bearer(token),
      json: { paymentMethod: { cardNumber: "4000000000000002" } },
    });
    expect(response.status).toBe(402);
    const problem = await response.json();
    expect(problem.type).toBe("https://docs.entrada.dev/problems/payment-declined");
    const after = (await (
      await api.fetch(`/shop/v1/cart/${cart.id}`, { headers: bearer(token) })
    ).json()) as Cart;
    expect(after.status).toBe("open");
    expect(after.items[0]?.quantity).toBe(3);
    const retry = await api.fetch(`/shop/v1/cart/${cart.id}/checkout`, {
      method: "POST",
      headers: bearer(token),
      json: { paymentMethod: { cardNumber: "4242424242424242" } },
    });
    expect(retry.status).toBe(200);
  });

  it("adds items by slug, merges lines, updates and removes them, enforcing maxPerOrder", async () => {
    const h = bearer(token);
    const list = await (await api.fetch("/shop/v1/discovery/events", { headers: h })).json();
    const event = (await (
      await api.fetch(`/shop/v1/discovery/events/${list.items[1].id}`, { headers: h })
    ).json()) as EventDetail;
    const article = event.pricingAssortments[0]?.articles[0];
    const slotId = event.slots[0]?.id;
    const cart = (await (
      await api.fetch("/shop/v1/cart", { method: "POST", headers: h, json: { currency: "EUR" } })
    ).json()) as Cart;
    let r = await api.fetch(`/shop/v1/cart/${cart.id}/items`, {
      method: "POST",
      headers: h,
      json: { articleSlug: article?.slug, slotId, quantity: 1 },
    });
    expect(r.status).toBe(201);
    r = await api.fetch(`/shop/v1/cart/${cart.id}/items`, {
      method: "POST",
      headers: h,
      json: { articleId: article?.id, slotId, quantity: 2 },
    });
    const merged = (await r.json()) as Cart;
    expect(merged.items).toHaveLength(1);
    expect(merged.items[0]?.quantity).toBe(3);
    expect(merged.total.currency).toBe("EUR");
    const itemId = merged.items[0]?.id;
    r = await api.fetch(`/shop/v1/cart/${cart.id}/items/${itemId}`, {
      method: "PATCH",
      headers: h,
      json: { quantity: 99 },
    });
    expect(r.status).toBe(422);
    expect((await r.json()).errors[0].pointer).toBe("/body/quantity");
    r = await api.fetch(`/shop/v1/cart/${cart.id}/items/${itemId}`, {
      method: "PATCH",
      headers: h,
      json: { quantity: 1 },
    });
    expect(((await r.json()) as Cart).items[0]?.quantity).toBe(1);
    r = await api.fetch(`/shop/v1/cart/${cart.id}/items/${itemId}`, { method: "DELETE", headers: h });
    const empty = (await r.json()) as Cart;
    expect(empty.items).toEqual([]);
    expect(empty.holdExpiresAt).toBeNull();
    r = await api.fetch(`/shop/v1/cart/${cart.id}/items`, {
      method: "POST",
      headers: h,
      json: { articleSlug: "no-such-article", slotId, quantity: 1 },
    });
    expect(r.status).toBe(422);
    expect((await r.json()).errors[0].pointer).toBe("/body/articleSlug");
  });

  it("refuses checkout of an incomplete cart with cart-not-ready naming what is missing", async () => {
    const cart = (await (
      await api.fetch("/shop/v1/cart", { method: "POST", headers: bearer(token) })
    ).json()) as Cart;
    const r = await api.fetch(`/shop/v1/cart/${cart.id}/checkout`, {
      method: "POST",
      headers: bearer(token),
    });
    expect(r.status).toBe(409);
    const problem = await r.json();
    expect(problem.type).toMatch(/cart-not-ready$/);
    expect(problem.missing).toEqual(["items", "customer", "paymentProvider"]);
    // Every event emitted by this suite (declines, merges, removals included) matches the contract.
    await expectEventsConform(api);
  });
});
