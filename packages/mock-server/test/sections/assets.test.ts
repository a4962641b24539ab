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

/** Decode our PNGs (RGBA, filter Sub on every row) back to pixels. */
function decodePng(png: Uint8Array): { width: number; height: number; data: Uint8Array } {
  expect(Array.from(png.slice(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  while (offset < png.length) {
    const length = view.getUint32(offset);
    const type = ascii(png, offset + 4, offset + 8);
    const body = png.slice(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = new DataView(body.buffer).getUint32(0);
      height = new DataView(body.buffer).getUint32(4);
    }
    if (type === "IDAT") idat.push(body);
    offset += 12 + length;
  }
  const raw = unzlibSync(new Uint8Array(idat.flatMap((c) => Array.from(c))));
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width * 4 + 1)]).toBe(1);
    for (let x = 0; x < width * 4; x++) {
      const left = x >= 4 ? (data[y * width * 4 + x - 4] as number) : 0;
      data[y * width * 4 + x] = ((raw[y * (width * 4 + 1) + 1 + x] as number) + left) & 0xff;
    }
  }
  return { width, height, data };
}

function jpegSize(jpeg: Uint8Array): { width: number; height: number } {
  expect([jpeg[0], jpeg[1], jpeg.at(-2), jpeg.at(-1)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
  let i = 2;
  while (i < jpeg.length) {
    const marker = jpeg[i + 1] as number;
    const length = ((jpeg[i + 2] as number) << 8) | (jpeg[i + 3] as number);
    if (marker === 0xc0)
      return {
        height: ((jpeg[i + 5] as number) << 8) | (jpeg[i + 6] as number),
        width: ((jpeg[i + 7] as number) << 8) | (jpeg[i + 8] as number),
      };
    i += 2 + length;
  }
  throw new Error("no SOF0");
}

function webpSize(webp: Uint8Array): { width: number; height: number } {
  expect(ascii(webp, 0, 4)).toBe("RIFF");
  expect(ascii(webp, 8, 16)).toBe("WEBPVP8L");
  const view = new DataView(webp.buffer, webp.byteOffset);
  expect(view.getUint32(4, true)).toBe(webp.length - 8);
  expect(webp[20]).toBe(0x2f);
  const bits = view.getUint32(21, true);
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
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
    const list = (await h.call(assets, "listImages", { culture: "fr-CH" })).body as {
      items: ImageMeta[];
      nextCursor: string | null;
    };
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
      .body as { items: ImageMeta[] };
    expect(banners.items.map((i) => i.id)).toEqual(["ast_FAIRB"]);
    expect((await h.problem(assets, "getImageMetadata", { params: { imageId: "ast_nope" } })).slug).toBe(
      "not-found",
    );
  });

  it("negotiates WebP, PNG or JPEG from Accept, converts with format, scales down only, keeping the aspect ratio", async () => {
    const h = setup();
    const get = (query: Record<string, string>, accept?: string) =>
      h.call(assets, "getImage", {
        params: { imageId: "ast_defaultBanner" },
        query,
        headers: accept ? { accept } : {},
      });
    const webp = await get({}, "image/avif,image/webp,*/*;q=0.8");
    expect(webp.contentType).toBe("image/webp");
    expect(webpSize(bytesOf(webp.raw))).toEqual({ width: 960, height: 320 });
    // Compressed (transforms, copies, Huffman codes from the image), not 4 bytes a pixel: smaller than the PNG.
    const asPng = await get({ format: "png" });
    expect(bytesOf(webp.raw).length).toBeLessThan(bytesOf(asPng.raw).length);
    expect(bytesOf(webp.raw).length).toBeLessThan(960 * 320);
    // The highest q-value wins; among equals the original (no transcoding), then webp, png, jpeg.
    expect((await get({}, "image/png,image/*;q=0.5")).contentType).toBe("image/png");
    expect((await get({}, "image/jpeg,image/webp;q=0.9")).contentType).toBe("image/jpeg");
    // A browser's <img> (Chromium) rates every image type 1: it gets the original PNG as is.
    expect(
      (await get({}, "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8")).contentType,
    ).toBe("image/png");
    const png = await get({ width: "480" }, "image/png");
    expect(png.contentType).toBe("image/png");
    const decoded = decodePng(bytesOf(png.raw));
    expect([decoded.width, decoded.height]).toEqual([480, 160]);
    // Lossless: the pixels are exactly the rendering at that size.
    expect(decoded.data).toEqual(
      renderRaster({ width: 960, height: 320, from: "#0b5fff", to: "#ff7a00", seed: 1 }, 480, 160).data,
    );
    const jpeg = await get({ format: "jpeg", width: "4000" }, "image/webp");
    expect(jpeg.contentType).toBe("image/jpeg");
    expect(jpegSize(bytesOf(jpeg.raw))).toEqual({ width: 960, height: 320 });
    const excluded = await get({}, "image/webp;q=0, image/png;q=0, image/jpeg");
    expect(excluded.contentType).toBe("image/jpeg");
    const none = await get({}, "text/html");
    expect(none.contentType).toBe("image/png"); // the original
    const svg = await h.call(assets, "getImage", {
      params: { imageId: "ast_entradaLogo" },
      query: { format: "png" },
    });
    expect(svg.contentType).toBe("image/svg+xml");
  });

  it("answers 304 for a matching If-None-Match; ETags differ per representation", async () => {
    const h = setup();
    const first = await h.call(assets, "getImage", {
      params: { imageId: "ast_foyer" },
      query: { format: "png" },
    });
    const tag = first.headers?.etag as string;
    expect(tag).toMatch(/^"[0-9a-f]+"$/);
    expect(first.headers?.["cache-control"]).toBe("public, max-age=86400");
    const again = await h.call(assets, "getImage", {
      params: { imageId: "ast_foyer" },
      query: { format: "png" },
      headers: { "if-none-match": `"x", W/${tag}` },
    });
    expect(again.status).toBe(304);
    expect(again.raw).toBeUndefined();
    const other = await h.call(assets, "getImage", {
      params: { imageId: "ast_foyer" },
      query: { format: "jpeg" },
      headers: { "if-none-match": tag },
    });
    expect(other.status).toBe(200);
    expect(other.headers?.etag).not.toBe(tag);
  });
});

describe("assets: icons", () => {
  it("lists localized icons and serves SVG with currentColor or PNG at a size", async () => {
    const h = setup();
    const list = (await h.call(assets, "listIcons", { culture: "it-CH" })).body as {
      items: { name: string; label: string; url: string }[];
    };
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
    const base = (await h.call(assets, "getTheme", {})).body as Record<string, unknown>;
    expect(base).toMatchObject({
      logoUrl: "http://127.0.0.1:4010/assets/v1/images/ast_entradaLogo",
      bannerUrl: "http://127.0.0.1:4010/assets/v1/images/ast_defaultBanner",
      radius: 8,
      resolvedFrom: [{ level: "default", id: null }],
    });
    const widget = (await h.call(assets, "getTheme", { query: { channel: "widget" } })).body as Record<
      string,
      unknown
    >;
    expect(widget).toMatchObject({
      radius: 12,
      resolvedFrom: [
        { level: "channel", id: "widget" },
        { level: "default", id: null },
      ],
    });
    const event = (await h.call(assets, "getTheme", { query: { eventId: "evt_FAIR", channel: "email" } }))
      .body as {
      logoUrl: string;
      bannerUrl: string;
      radius: number;
      fontFamily: string;
      colors: Record<string, string>;
      resolvedFrom: unknown[];
    };
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
    ).body as { logoUrl: string };
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
    expect(h.emitted.map((e) => [e.type, (e.data as { downloadCount: number }).downloadCount])).toEqual([
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
