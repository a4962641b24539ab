// Examples are documentation: beyond matching their schemas they must add up. A cart's total is the sum of its
// line totals, a line total is unit price × quantity, a ticket's Quicode names the ticket, and tickets belong to
// the order that lists them.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { allExamples, isObject, type Json, type JsonObject, loadDocument } from "./document";

const document = loadDocument("openapi.json");

interface Found {
  where: string;
  value: JsonObject;
}

/** Every object inside every example value, with where it was found. */
function objectsInExamples(): Found[] {
  const found: Found[] = [];
  const visit = (node: Json, where: string): void => {
    if (Array.isArray(node)) {
      node.forEach((child, index) => {
        visit(child, `${where}[${index}]`);
      });
    } else if (isObject(node)) {
      found.push({ where, value: node });
      for (const [key, child] of Object.entries(node)) visit(child, `${where}.${key}`);
    }
  };
  for (const site of allExamples(document)) visit(site.value, site.where);
  return found;
}

const objects = objectsInExamples();

function isMoney(value: Json | undefined): value is { amount: number; currency: string } {
  return isObject(value) && typeof value.amount === "number" && typeof value.currency === "string";
}

describe("example arithmetic", () => {
  const lines = objects.filter(
    ({ value }) => isMoney(value.unitPrice) && isMoney(value.lineTotal) && typeof value.quantity === "number",
  );
  const totals = objects.filter(
    ({ value }) =>
      isMoney(value.total) &&
      Array.isArray(value.items) &&
      value.items.some((item) => isObject(item) && isMoney(item.lineTotal)),
  );

  it("finds cart lines and totals in the examples", () => {
    expect(lines.length).toBeGreaterThan(0);
    expect(totals.length).toBeGreaterThan(0);
  });

  it("line total = unit price × quantity, in the unit price's currency", () => {
    const wrong = lines
      .filter(({ value }) => {
        const unit = value.unitPrice as { amount: number; currency: string };
        const line = value.lineTotal as { amount: number; currency: string };
        return line.amount !== unit.amount * (value.quantity as number) || line.currency !== unit.currency;
      })
      .map(({ where }) => where);
    expect(wrong).toEqual([]);
  });

  it("subtotal = sum of the line totals and total = subtotal − discounts, in one currency", () => {
    const wrong = totals
      .filter(({ value }) => {
        const total = value.total as { amount: number; currency: string };
        const discounts = (Array.isArray(value.discounts) ? value.discounts : []).filter(isObject);
        const off = discounts.reduce((acc, d) => acc + (isMoney(d.amount) ? d.amount.amount : 0), 0);
        if (isMoney(value.subtotal) && value.subtotal.amount - off !== total.amount) return true;
        const items = (value.items as Json[]).filter(isObject);
        const sum = items.reduce(
          (acc, item) => acc + (isMoney(item.lineTotal) ? item.lineTotal.amount : 0),
          0,
        );
        const currencies = new Set(
          items.map((item) => (isMoney(item.lineTotal) ? item.lineTotal.currency : "")),
        );
        const before = isMoney(value.subtotal) ? value.subtotal.amount : total.amount;
        return sum !== before || currencies.size !== 1 || !currencies.has(total.currency);
      })
      .map(({ where }) => where);
    expect(wrong).toEqual([]);
  });
});

describe("example tickets", () => {
  // Our own tickets (`tkt_` ids) carry `Q1.<ticketId>.<checksum>`; external vendors' tickets carry their own codes.
  const tickets = objects.filter(
    ({ value }) =>
      typeof value.quicode === "string" && typeof value.id === "string" && value.id.startsWith("tkt_"),
  );

  it("finds tickets in the examples", () => {
    expect(tickets.length).toBeGreaterThan(0);
  });

  it("each Quicode of an Entrada ticket names that ticket", () => {
    const wrong = tickets
      .filter(({ value }) => (value.quicode as string).split(".")[1] !== value.id)
      .map(({ where }) => where);
    expect(wrong).toEqual([]);
  });

  it("tickets listed in an order belong to that order", () => {
    const wrong: string[] = [];
    for (const { where, value } of objects) {
      if (typeof value.id !== "string" || !value.id.startsWith("ord_") || !Array.isArray(value.tickets))
        continue;
      for (const ticket of value.tickets.filter(isObject)) {
        if (ticket.orderId !== value.id) wrong.push(`${where}: ${String(ticket.id)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("example links", () => {
  // DECISIONS.md "Signed asset links": the examples are signed with the documented example key, so a reader can
  // reproduce a signature: base64url(HMAC-SHA256(key, "GET\n" + path + "\n" + expires)).
  const exampleKey = "entrada-example-link-key";
  const links = objects.flatMap(({ where, value }) =>
    (["ticketUrl", "receiptUrl"] as const)
      .filter((name) => typeof value[name] === "string")
      .map((name) => ({ where: `${where}.${name}`, owner: value, url: new URL(value[name] as string) })),
  );

  it("finds ticket and receipt links in the examples", () => {
    expect(links.filter((l) => l.where.endsWith("ticketUrl")).length).toBeGreaterThan(3);
    expect(links.filter((l) => l.where.endsWith("receiptUrl")).length).toBeGreaterThan(1);
  });

  it("every link carries expires and a signature that verifies with the example key", () => {
    const wrong: string[] = [];
    for (const { where, url } of links) {
      const expires = url.searchParams.get("expires") ?? "";
      const signature = url.searchParams.get("signature") ?? "";
      const expected = createHmac("sha256", exampleKey)
        .update(`GET\n${url.pathname}\n${expires}`)
        .digest("base64url");
      if (!/^[0-9]+$/.test(expires) || signature !== expected || [...url.searchParams.keys()].length !== 2)
        wrong.push(where);
    }
    expect(wrong).toEqual([]);
  });

  it("a ticket link points at that ticket's PDF", () => {
    const wrong = links
      .filter(
        ({ where, owner, url }) =>
          where.endsWith("ticketUrl") && url.pathname !== `/assets/v1/tickets/${String(owner.id)}.pdf`,
      )
      .map(({ where }) => where);
    expect(wrong).toEqual([]);
  });
});
