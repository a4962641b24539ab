import { decode } from "fast-png";
import { unzlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import assets from "../../src/sections/assets/index.ts";
import { renderRaster } from "../../src/sections/assets/raster.ts";
import { fakeShop, harness } from "./context.ts";

type ImageMeta = {
  id: string;
  kind: string;
  mediaType: string;
  width: number | null;
  height: number | null;
  bytes: number;
  alt: string;
  url: string;
  eventId: string | null;
  venueId: string | null;
};

function setup(seed: Record<string, unknown> = {}) {
  return harness([assets], { slices: fakeShop(), seed });
}

const bytesOf = (raw: unknown): Uint8Array =>
  typeof raw === "string" ? new TextEncoder().encode(raw) : (raw as Uint8Array);
const ascii = (b: Uint8Array, start: number, end: number) => String.fromCharCode(...b.slice(start, end));

/** Decode a PNG with fast-png (the library the mock encodes with) to RGBA pixels. */
function decodePng(png: Uint8Array): { width: number; height: number; data: Uint8Array } {
  expect(Array.from(png.slice(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const image = decode(png);
  expect([image.channels, image.depth]).toEqual([4, 8]);
  return { width: image.width, height: image.height, data: new Uint8Array(image.data) };
}

/** Check a PDF's structure: header, every xref offset pointing at its object, trailer; return its page text. */
function readPdf(pdf: Uint8Array): string {
  const text = ascii(pdf, 0, pdf.length);
  expect(text.startsWith("%PDF-1.7")).toBe(true);
  expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF/.exec(text)?.[1]);
  expect(text.slice(startxref, startxref + 4)).toBe("xref");
  const entries = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
  for (const [i, offset] of entries.entries()) {
    expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
  }

  let content = "";
  for (const m of text.matchAll(/\/Length (\d+) \/Filter \/FlateDecode >>\nstream\n/g)) {
    const start = (m.index as number) + m[0].length;
    content += ascii(unzlibSync(pdf.slice(start, start + Number(m[1]))), 0, Number.POSITIVE_INFINITY);
  }
  return content;
}

describe("assets: images", () => {
  it("lists default images, a logo per venue and a banner per event, with exact byte sizes", async () => {
    const h = setup();
    const list = (await h.call(assets, "listImages", { culture: "fr-CH" })).body;
    const ids = list.items.map((i) => i.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        "ast_entradaLogo",
        "ast_defaultBanner",
        "ast_foyer",
        "ast_HALLL",
        "ast_CONCERTB",
        "ast_FAIRB",
      ]),
    );
    const banner = list.items.find((i) => i.id === "ast_CONCERTB") as ImageMeta;
    expect(banner).toMatchObject({
      kind: "banner",
      mediaType: "image/svg+xml",
      width: 960,
      height: 320,
      eventId: "evt_CONCERT",
      venueId: "ven_HALL",
      alt: "Bannière : Concert d'hiver",
    });
    for (const meta of list.items.filter((i) =>
      ["ast_defaultBanner", "ast_foyer", "ast_HALLL"].includes(i.id),
    )) {
      const original = await h.call(assets, "getImage", {
        params: { imageId: meta.id },
        headers: { accept: meta.mediaType },
      });
      expect([meta.id, original.contentType, bytesOf(original.raw).length]).toEqual([
        meta.id,
        meta.mediaType,
        meta.bytes,
      ]);
    }
    const banners = (await h.call(assets, "listImages", { query: { kind: "banner", eventId: "evt_FAIR" } }))
      .body;
    expect(banners.items.map((i) => i.id)).toEqual(["ast_FAIRB"]);
    expect((await h.problem(assets, "getImageMetadata", { params: { imageId: "ast_nope" } })).slug).toBe(
      "not-found",
    );
  });

  it("serves rasters as PNG, negotiates honestly (406 when Accept rules the one type out), scales down only", async () => {
    const h = setup();
    const get = (query: Record<string, string>, accept?: string, imageId = "ast_defaultBanner") =>
      h.call(assets, "getImage", { params: { imageId }, query, headers: accept ? { accept } : {} });
    // A browser's <img> (Chromium) sends image/avif,image/webp,…,image/*: it gets the PNG.
    const browser = await get({}, "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8");
    expect(browser.contentType).toBe("image/png");
    expect((await get({}, "image/png")).contentType).toBe("image/png");
    expect((await get({ format: "png" })).contentType).toBe("image/png");
    // Only WebP or JPEG acceptable: no bytes of another type under a false Content-Type, a 406 naming PNG.
    for (const accept of ["image/webp", "image/jpeg, image/webp;q=0.9", "image/png;q=0, image/*"]) {
      const refused = await h.problem(assets, "getImage", {
        params: { imageId: "ast_defaultBanner" },
        headers: { accept },
      });
      expect([accept, refused.slug, refused.extensions?.errors]).toEqual([
        accept,
        "not-acceptable",
        [{ pointer: "/header/accept", detail: "Accept image/png." }],
      ]);
    }
    const png = await get({ width: "480" }, "image/png");
    const decoded = decodePng(bytesOf(png.raw));
    expect([decoded.width, decoded.height]).toEqual([480, 160]);
    // Lossless: the pixels are exactly the rendering at that size.
    expect(decoded.data).toEqual(
      renderRaster({ width: 960, height: 320, from: "#0b5fff", to: "#ff7a00", seed: 1 }, 480, 160).data,
    );
    // Never enlarged.
    const big = decodePng(bytesOf((await get({ width: "4000" })).raw));
    expect([big.width, big.height]).toEqual([960, 320]);
    // SVG originals are SVG: format=png or an Accept without SVG is a 406, not a PNG.
    expect((await get({}, undefined, "ast_entradaLogo")).contentType).toBe("image/svg+xml");
    const svgAsPng = await h.problem(assets, "getImage", {
      params: { imageId: "ast_entradaLogo" },
      query: { format: "png" },
    });
    expect([svgAsPng.slug, svgAsPng.extensions?.errors]).toEqual([
      "not-acceptable",
      [{ pointer: "/query/format", detail: "Accept image/svg+xml." }],
    ]);
    const svgRefused = await h.problem(assets, "getImage", {
      params: { imageId: "ast_entradaLogo" },
      headers: { accept: "image/png" },
    });
    expect(svgRefused.slug).toBe("not-acceptable");
  });

  it("answers 304 for a matching If-None-Match; ETags differ per representation", async () => {
    const h = setup();
    const first = await h.call(assets, "getImage", { params: { imageId: "ast_foyer" } });
    const tag = first.headers?.etag as string;
    expect(tag).toMatch(/^"[0-9a-f]+"$/);
    expect(first.headers?.["cache-control"]).toBe("public, max-age=86400");
    const again = await h.call(assets, "getImage", {
      params: { imageId: "ast_foyer" },
      headers: { "if-none-match": `"x", W/${tag}` },
    });
    expect(again.status).toBe(304);
    expect(again.raw).toBeUndefined();
    const other = await h.call(assets, "getImage", {
      params: { imageId: "ast_foyer" },
      query: { width: "320" },
      headers: { "if-none-match": tag },
    });
    expect(other.status).toBe(200);
    expect(other.headers?.etag).not.toBe(tag);
  });
});

describe("assets: icons", () => {
  it("lists localized icons and serves SVG with currentColor or PNG at a size", async () => {
    const h = setup();
    const list = (await h.call(assets, "listIcons", { culture: "it-CH" })).body;
    expect(list.items.find((i) => i.name === "calendar")).toEqual({
      name: "calendar",
      label: "Data",
      url: "http://127.0.0.1:4010/assets/v1/icons/calendar",
    });
    const svg = await h.call(assets, "getIcon", { params: { iconName: "ticket" }, culture: "fr-CH" });
    expect(svg.contentType).toBe("image/svg+xml");
    expect(svg.raw).toContain('stroke="currentColor"');
    expect(svg.raw).toContain("<title>Billet</title>");
    const png = await h.call(assets, "getIcon", {
      params: { iconName: "check" },
      query: { format: "png", size: "64" },
    });
    const img = decodePng(bytesOf(png.raw));
    expect([img.width, img.height]).toEqual([64, 64]);
    const alpha = Array.from({ length: 64 * 64 }, (_, i) => img.data[i * 4 + 3] as number);
    expect(alpha.some((a) => a === 255)).toBe(true); // strokes
    expect(alpha[0]).toBe(0); // transparent corner
    expect((await h.problem(assets, "getIcon", { params: { iconName: "nope" } })).slug).toBe("not-found");
  });
});

describe("assets: theme", () => {
  it("resolves field by field: event, venue, channel, default", async () => {
    const h = setup({ assets: { theme: { events: { evt_FAIR: { radius: 20 } } } } });
    const base = (await h.call(assets, "getTheme", {})).body;
    expect(base).toMatchObject({
      logoUrl: "http://127.0.0.1:4010/assets/v1/images/ast_entradaLogo",
      bannerUrl: "http://127.0.0.1:4010/assets/v1/images/ast_defaultBanner",
      radius: 8,
      resolvedFrom: [{ level: "default", id: null }],
    });
    const widget = (await h.call(assets, "getTheme", { query: { channel: "widget" } })).body;
    expect(widget).toMatchObject({
      radius: 12,
      resolvedFrom: [
        { level: "channel", id: "widget" },
        { level: "default", id: null },
      ],
    });
    const event = (await h.call(assets, "getTheme", { query: { eventId: "evt_FAIR", channel: "email" } }))
      .body;
    expect(event.bannerUrl).toBe("http://127.0.0.1:4010/assets/v1/images/ast_FAIRB");
    expect(event.logoUrl).toBe("http://127.0.0.1:4010/assets/v1/images/ast_EXPOL");
    expect(event.radius).toBe(20); // seeded on the event layer, over the email channel's 4
    expect(event.fontFamily).toBe("Helvetica, Arial, sans-serif"); // from the channel
    expect(event.colors.background).toBe("#ffffff");
    expect(event.resolvedFrom).toEqual([
      { level: "event", id: "evt_FAIR" },
      { level: "venue", id: "ven_EXPO" },
      { level: "channel", id: "email" },
      { level: "default", id: null },
    ]);
    const otherVenue = (
      await h.call(assets, "getTheme", { query: { eventId: "evt_FAIR", venueId: "ven_HALL" } })
    ).body;
    expect(otherVenue.logoUrl).toContain("ast_HALLL");
    expect((await h.problem(assets, "getTheme", { query: { eventId: "evt_NOPE" } })).slug).toBe("not-found");
    expect((await h.problem(assets, "getTheme", { query: { venueId: "ven_NOPE" } })).slug).toBe("not-found");
  });
});

describe("assets: documents", () => {
  it("renders a valid ticket PDF with the Quicode (text and QR), localized, and fires ticket.downloaded", async () => {
    const h = setup();
    const res = await h.call(assets, "getTicketPdf", { params: { ticketId: "tkt_A" }, culture: "fr-CH" });
    expect(res.contentType).toBe("application/pdf");
    expect(res.headers?.["content-disposition"]).toBe('inline; filename="ticket-tkt_A.pdf"');
    const content = readPdf(bytesOf(res.raw));
    expect(content).toContain("(Q1.tkt_A.K7P2) Tj");
    expect(content).toContain("(Concert d'hiver) Tj");
    expect(content).toContain("(Anna Muster) Tj");
    expect(content).toMatch(/\(samedi,? 5 d\xe9cembre 2026 \xe0 19:00\) Tj/); // WinAnsi accents, Zurich time
    expect(content).toMatch(/ re f$|re f\n/m); // QR modules drawn as filled rectangles
    await h.call(assets, "getTicketPdf", { params: { ticketId: "tkt_A" } });
    expect(h.emitted.map((e) => [e.type, e.data.downloadCount])).toEqual([
      ["ticket.downloaded", 1],
      ["ticket.downloaded", 2],
    ]);
    expect(h.emitted[0]?.data).toMatchObject({
      ticket: {
        id: "tkt_A",
        quicode: "Q1.tkt_A.K7P2",
        ticketUrl: "http://127.0.0.1:4010/assets/v1/tickets/tkt_A.pdf?expires=0&signature=unit-test",
      },
    });
    expect((await h.problem(assets, "getTicketPdf", { params: { ticketId: "tkt_X" } })).slug).toBe(
      "conflict",
    );
    expect((await h.problem(assets, "getTicketPdf", { params: { ticketId: "tkt_NOPE" } })).slug).toBe(
      "not-found",
    );
    // Another client, or a browser session other than the buyer's, does not see the ticket.
    const other = { kind: "client" as const, clientId: "someone-else", scopes: ["Shop"] };
    expect(
      (await h.problem(assets, "getTicketPdf", { params: { ticketId: "tkt_A" }, auth: other })).slug,
    ).toBe("not-found");
    const session = { kind: "session" as const, clientId: "test", scopes: ["Shop"], sessionId: "ses_OTHER" };
    expect(
      (await h.problem(assets, "getOrderReceipt", { params: { orderId: "ord_ONE" }, auth: session })).slug,
    ).toBe("not-found");
  });

  it("renders a receipt with the buyer, the total, the included VAT and the payment provider", async () => {
    const h = setup();
    const res = await h.call(assets, "getOrderReceipt", { params: { orderId: "ord_ONE" }, culture: "en-GB" });
    expect(res.headers?.["content-disposition"]).toBe('inline; filename="receipt-ord_ONE.pdf"');
    const content = readPdf(bytesOf(res.raw));
    expect(content).toContain("(Receipt) Tj");
    expect(content).toContain("(Anna Muster) Tj");
    // Intl separates the currency with a no-break space (WinAnsi 0xA0).
    expect(content).toMatch(/\(Winter Concert \x96 Standing\) Tj/);
    expect(content).toMatch(/\(CHF\xa049\.00\) Tj/);
    expect(content).toMatch(/\(CHF\xa0147\.00\) Tj/);
    expect(content).toMatch(/\(incl\. VAT 8\.1%: CHF\xa011\.01\) Tj/);
    expect((await h.problem(assets, "getOrderReceipt", { params: { orderId: "ord_NOPE" } })).slug).toBe(
      "not-found",
    );
  });
});
