import type { components } from "@entrada/openapi/schema";
import { Kept } from "../../core/kept.ts";
import { apiUrl } from "../../core/links.ts";
import { type ContextOf, defineSection, type ResultOf } from "../../core/section.ts";
import type { ControlRoute, OperationContext } from "../../core/types.ts";
import { detail } from "../shared/details.ts";
import { paginate, queryParam } from "../shared/paging.ts";
import { orderVisibleTo, shopOrders, shopTicketById, webhookShopTicket } from "../shared/shop-view.ts";
import { droppedDetail } from "../shop/order-cap.ts";
import { shopSlice } from "../shop/state.ts";
import { allImages, hash, type ImageRecord, imageById } from "./catalogue.ts";
import { receiptPdf, ticketPdf } from "./documents.ts";
import { ICONS } from "./icons.ts";
import { encodePng } from "./png.ts";
import { iconSvg, renderIcon, renderRaster, scaledSize } from "./raster.ts";
import { type Channel, type ResolvedTheme, resolveTheme, type ThemeSeed } from "./theme.ts";

export { eventBannerId, venueLogoId } from "./catalogue.ts";

export const ASSETS = "assets";

export interface AssetsState {
  theme: ThemeSeed;
  /** Downloads per ticket (for `ticket.downloaded`). */
  downloads: Record<string, number>;
}

const CACHE = "public, max-age=86400";
/** Encodings kept: at most 200 (a few MB). */
const encoded = new Kept<string, Uint8Array>(200);

/** Encode (and memoize: images are pure functions of their recipe) a raster as PNG at a width. */
function rasterBytes(image: RasterImage, width?: number): Uint8Array {
  const size = scaledSize(image.source.recipe, width);
  const key = `${JSON.stringify(image.source.recipe)}|${size.width}`;
  return encoded.get(key, () => encodePng(renderRaster(image.source.recipe, size.width, size.height)));
}

type RasterImage = ImageRecord & { source: { kind: "raster" } };

function isRaster(image: ImageRecord): image is RasterImage {
  return image.source.kind === "raster";
}

function originalBytes(image: ImageRecord): number {
  return isRaster(image)
    ? rasterBytes(image).length
    : new TextEncoder().encode(image.source.kind === "svg" ? image.source.svg : "").length;
}

function metadataJson(ctx: OperationContext, image: ImageRecord) {
  const source = image.source;
  let media: Pick<components["schemas"]["ImageMetadata"], "mediaType" | "width" | "height">;
  if (source.kind === "svg") {
    const size = /width="(\d+)" height="(\d+)"/.exec(source.svg);
    media = {
      mediaType: "image/svg+xml",
      width: size ? Number(size[1]) : null,
      height: size ? Number(size[2]) : null,
    };
  } else {
    media = { mediaType: source.original, width: source.recipe.width, height: source.recipe.height };
  }
  return {
    id: image.id,
    kind: image.kind,
    ...media,
    bytes: originalBytes(image),
    alt: ctx.text(image.alt),
    url: apiUrl(ctx, `/assets/v1/images/${image.id}`),
    eventId: image.eventId,
    venueId: image.venueId,
    createdAt: image.createdAt,
  };
}

function imageOr404(ctx: OperationContext): ImageRecord {
  const id = ctx.params.imageId as string;
  const image = imageById(ctx.world, id);
  if (!image) ctx.problem("not-found", detail(ctx, "noImage", { id }));
  return image;
}

/** Parse an Accept header into media ranges with q-values. */
function acceptRanges(accept: string | undefined): { type: string; q: number }[] {
  if (!accept) return [{ type: "*/*", q: 1 }];
  return accept.split(",").map((part) => {
    const [type = "", ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)).find(Boolean);
    return { type: type.trim().toLowerCase(), q: q ? Number(q[1]) : 1 };
  });
}

/** The q-value the ranges give a media type: its own range, else `type/*`, else `*\/*`, else 0 (RFC 9110 §12.5.1). */
function quality(ranges: { type: string; q: number }[], type: string): number {
  const range =
    ranges.find((r) => r.type === type) ??
    ranges.find((r) => r.type === `${type.split("/")[0]}/*`) ??
    ranges.find((r) => r.type === "*/*");
  return range?.q ?? 0;
}

/** The 406 for an image whose one representation the client's Accept (or `format`) rules out. */
function notAcceptable(ctx: OperationContext, served: "image/png" | "image/svg+xml"): never {
  return ctx.problem(
    "not-acceptable",
    `This image is served as ${served}; the request accepts none of that.`,
    {
      errors: [
        { pointer: ctx.query.format ? "/query/format" : "/header/accept", detail: `Accept ${served}.` },
      ],
    },
  );
}

function etag(parts: string): string {
  return `"${hash(parts).toString(16)}${(hash(`${parts}#`) >>> 8).toString(16)}"`;
}

function notModified(ctx: OperationContext, tag: string): boolean {
  const header = ctx.headers["if-none-match"];
  if (!header) return false;
  return header.trim() === "*" || header.split(",").some((v) => v.trim().replace(/^W\//, "") === tag);
}

function listImages(ctx: ContextOf<"listImages">): ResultOf<"listImages"> {
  const kind = queryParam(ctx, "kind");
  const eventId = queryParam(ctx, "eventId");
  const venueId = queryParam(ctx, "venueId");
  const items = allImages(ctx.world)
    .filter(
      (i) =>
        (kind === undefined || i.kind === kind) &&
        (eventId === undefined || i.eventId === eventId) &&
        (venueId === undefined || i.venueId === venueId),
    )
    .sort((a, b) =>
      a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
    );
  const page = paginate(ctx, items, { position: (i) => [i.createdAt, i.id], descending: true });
  return {
    status: 200,
    body: { items: page.items.map((i) => metadataJson(ctx, i)), nextCursor: page.nextCursor },
  };
}

function getImageMetadata(ctx: ContextOf<"getImageMetadata">): ResultOf<"getImageMetadata"> {
  return { status: 200, body: metadataJson(ctx, imageOr404(ctx)) };
}

function getImage(ctx: ContextOf<"getImage">): ResultOf<"getImage"> {
  const image = imageOr404(ctx);
  const widthText = queryParam(ctx, "width");
  const width = widthText === undefined ? undefined : Number(widthText);
  const format = queryParam(ctx, "format");
  const accepts = (type: string) => quality(acceptRanges(ctx.headers.accept), type) > 0;
  if (!isRaster(image)) {
    const svg = image.source.kind === "svg" ? image.source.svg : "";
    // One representation: SVG (the mock does not rasterize SVG), so `format=png` or an Accept without it is a 406.
    if (format !== undefined || !accepts("image/svg+xml")) notAcceptable(ctx, "image/svg+xml");
    const tag = etag(`${image.id}|svg|${svg}`);
    const headers = { etag: tag, "cache-control": CACHE };
    if (notModified(ctx, tag)) return { status: 304, headers };
    return { status: 200, headers, contentType: "image/svg+xml", raw: svg };
  }
  if (!accepts("image/png")) notAcceptable(ctx, "image/png");
  const size = scaledSize(image.source.recipe, width);
  const tag = etag(`${image.id}|${JSON.stringify(image.source.recipe)}|image/png|${size.width}`);
  const headers: Record<string, string> = {
    etag: tag,
    "cache-control": CACHE,
    vary: "Accept, Accept-Language",
  };
  if (notModified(ctx, tag)) return { status: 304, headers };
  return { status: 200, headers, contentType: "image/png", raw: rasterBytes(image, width) };
}

function listIcons(ctx: ContextOf<"listIcons">): ResultOf<"listIcons"> {
  return {
    status: 200,
    body: {
      items: ICONS.map((i) => ({
        name: i.name,
        label: ctx.text(i.label),
        url: apiUrl(ctx, `/assets/v1/icons/${i.name}`),
      })),
    },
  };
}

function getIcon(ctx: ContextOf<"getIcon">): ResultOf<"getIcon"> {
  const name = ctx.params.iconName as string;
  const icon = ICONS.find((i) => i.name === name);
  if (!icon) ctx.problem("not-found", detail(ctx, "noIcon", { id: name }));
  const format = queryParam(ctx, "format") ?? "svg";
  const served = format === "png" ? "image/png" : "image/svg+xml";
  if (quality(acceptRanges(ctx.headers.accept), served) <= 0) notAcceptable(ctx, served);
  const size = Number(queryParam(ctx, "size") ?? 48);
  const tag = etag(`${name}|${format}|${format === "png" ? size : ""}|${ctx.culture}`);
  const headers = { etag: tag, "cache-control": CACHE };
  if (notModified(ctx, tag)) return { status: 304, headers };
  if (format === "png")
    return { status: 200, headers, contentType: "image/png", raw: encodePng(renderIcon(icon.shapes, size)) };
  return {
    status: 200,
    headers,
    contentType: "image/svg+xml",
    raw: iconSvg(icon.shapes, ctx.text(icon.label)),
  };
}

function themeFor(
  ctx: OperationContext,
  input: { eventId?: string; venueId?: string; channel?: Channel },
): ResolvedTheme {
  const state = assets.slice(ctx.world);
  const theme = resolveTheme(ctx.world, state.theme, input);
  if (theme === "unknown-event")
    ctx.problem("not-found", detail(ctx, "noEvent", { id: input.eventId ?? "" }));
  if (theme === "unknown-venue")
    ctx.problem("not-found", detail(ctx, "noVenue", { id: input.venueId ?? "" }));
  return theme;
}

function getTheme(ctx: ContextOf<"getTheme">): ResultOf<"getTheme"> {
  const input = {
    ...(queryParam(ctx, "eventId") ? { eventId: queryParam(ctx, "eventId") as string } : {}),
    ...(queryParam(ctx, "venueId") ? { venueId: queryParam(ctx, "venueId") as string } : {}),
    ...(queryParam(ctx, "channel") ? { channel: queryParam(ctx, "channel") as Channel } : {}),
  };
  const theme = themeFor(ctx, input);
  const url = (id: string) => apiUrl(ctx, `/assets/v1/images/${id}`);
  const body = {
    logoUrl: url(theme.logoImageId),
    bannerUrl: theme.bannerImageId === null ? null : url(theme.bannerImageId),
    colors: theme.colors,
    fontFamily: theme.fontFamily,
    radius: theme.radius,
    resolvedFrom: theme.resolvedFrom,
  };
  return { status: 200, headers: { etag: etag(JSON.stringify(body)) }, body };
}

/** The ticket's PDF (404 unknown or, with `visibleTo`, not the caller's order; 409 cancelled). */
function ticketDocument(ctx: OperationContext, id: string, checkVisibility: boolean) {
  const ticket = shopTicketById(ctx.world, id);
  // Tickets are visible to whoever may see their order (the shop's rule: same client, same session).
  if (!ticket) {
    const gone = droppedDetail(shopSlice(ctx.world), "ticket", id);
    if (gone) ctx.problem("not-found", ctx.text(gone));
  }
  if (!ticket || (checkVisibility && !orderVisibleTo(ctx.world, ticket.orderId, ctx.auth)))
    ctx.problem("not-found", detail(ctx, "noTicket", { id }));
  if (ticket.status === "cancelled") ctx.problem("conflict", detail(ctx, "ticketCancelled", { id }));
  const theme = themeFor(ctx, { eventId: ticket.eventId, channel: "pdf" });
  return {
    ticket,
    headers: { "content-disposition": `inline; filename="ticket-${ticket.id}.pdf"` },
    contentType: "application/pdf" as const,
    raw: ticketPdf(ctx.world, ticket, theme, ctx.culture, ctx.clock.now()),
  };
}

/** The order's receipt PDF (404 unknown or, with `checkVisibility`, not the caller's order). */
function receiptDocument(ctx: OperationContext, id: string, checkVisibility: boolean) {
  const order = shopOrders(ctx.world).find((o) => o.id === id);
  if (!order) {
    const gone = droppedDetail(shopSlice(ctx.world), "order", id);
    if (gone) ctx.problem("not-found", ctx.text(gone));
  }
  if (!order || (checkVisibility && !orderVisibleTo(ctx.world, id, ctx.auth)))
    ctx.problem("not-found", detail(ctx, "noOrder", { id }));
  const theme = themeFor(ctx, { channel: "pdf" });
  return {
    headers: { "content-disposition": `inline; filename="receipt-${order.id}.pdf"` },
    contentType: "application/pdf" as const,
    raw: receiptPdf(ctx.world, order, theme, ctx.culture, ctx.clock.now()),
  };
}

function getTicketPdf(ctx: ContextOf<"getTicketPdf">): ResultOf<"getTicketPdf"> {
  const id = ctx.params.ticketId.replace(/\.pdf$/, "");
  const { ticket, ...document } = ticketDocument(ctx, id, true);
  const state = assets.slice(ctx.world);
  const count = (state.downloads[id] ?? 0) + 1;
  state.downloads[id] = count;
  ctx.emit("ticket.downloaded", { ticket: webhookShopTicket(ctx, ticket), downloadCount: count });
  return { status: 200, ...document };
}

function getOrderReceipt(ctx: ContextOf<"getOrderReceipt">): ResultOf<"getOrderReceipt"> {
  return { status: 200, ...receiptDocument(ctx, ctx.params.orderId, true) };
}

/** The same documents without credentials, for links pasted into a browser (mock only, under `/__mock`). */
const documentControls: ControlRoute[] = [
  {
    method: "GET",
    path: "/shop/tickets/{ticketId}",
    description: "Ticket PDF without credentials (the same document as getTicketPdf).",
    handler: (ctx) => {
      const { ticket: _ticket, ...document } = ticketDocument(ctx, ctx.params.ticketId ?? "", false);
      return { status: 200, ...document };
    },
  },
  {
    method: "GET",
    path: "/shop/orders/{orderId}/receipt",
    description: "Receipt PDF without credentials (the same document as getOrderReceipt).",
    handler: (ctx) => ({ status: 200, ...receiptDocument(ctx, ctx.params.orderId ?? "", false) }),
  },
];

/** Assets: images (SVG, and generated rasters as PNG), icons, ticket PDFs, receipts and themes. */
const assets = defineSection<AssetsState>({
  name: ASSETS,
  initialState(seed) {
    const own = seed[ASSETS] as { theme?: ThemeSeed } | undefined;
    return { theme: structuredClone(own?.theme ?? {}), downloads: {} };
  },
  controls: documentControls,
  handlers: {
    listImages,
    getImageMetadata,
    getImage,
    listIcons,
    getIcon,
    getTheme,
    getTicketPdf,
    getOrderReceipt,
  },
});

export default assets;
