import { apiUrl } from "../../core/links.ts";
import type { HandlerResult, OperationContext, SectionModule } from "../../core/types.ts";
import { detail } from "../entrance/details.ts";
import { paginate, queryParam } from "../entrance/paging.ts";
import { orderVisibleTo, shopOrders, shopTickets, webhookShopTicket } from "../entrance/shop-view.ts";
import { allImages, hash, type ImageRecord, imageById } from "./catalogue.ts";
import { receiptPdf, ticketPdf } from "./documents.ts";
import { encodeJpeg } from "./encode/jpeg.ts";
import { encodePng } from "./encode/png.ts";
import { encodeWebp } from "./encode/webp.ts";
import { ICONS } from "./icons.ts";
import { iconSvg, renderIcon, renderRaster, scaledSize } from "./raster.ts";
import { type Channel, type ResolvedTheme, resolveTheme, type ThemeSeed } from "./theme.ts";

export { eventBannerId, venueLogoId } from "./catalogue.ts";

export const ASSETS = "assets";

export interface AssetsState {
  theme: ThemeSeed;
  /** Downloads per ticket (for `ticket.downloaded`). */
  downloads: Record<string, number>;
}

type RasterType = "image/png" | "image/jpeg" | "image/webp";

const CACHE = "public, max-age=86400";
const encoded = new Map<string, Uint8Array>();

/** Encode (and memoize: images are pure functions of their recipe) a raster at a size and type. */
function rasterBytes(
  image: ImageRecord & { source: { kind: "raster" } },
  type: RasterType,
  width?: number,
): Uint8Array {
  const size = scaledSize(image.source.recipe, width);
  const key = `${JSON.stringify(image.source.recipe)}|${type}|${size.width}`;
  let bytes = encoded.get(key);
  if (!bytes) {
    const pixels = renderRaster(image.source.recipe, size.width, size.height);
    bytes =
      type === "image/png"
        ? encodePng(pixels)
        : type === "image/jpeg"
          ? encodeJpeg(pixels, 85)
          : encodeWebp(pixels);
    if (encoded.size > 200) encoded.clear();
    encoded.set(key, bytes);
  }
  return bytes;
}

function originalBytes(image: ImageRecord): number {
  return image.source.kind === "svg"
    ? new TextEncoder().encode(image.source.svg).length
    : rasterBytes(image as ImageRecord & { source: { kind: "raster" } }, image.source.original).length;
}

function metadataJson(ctx: OperationContext, image: ImageRecord) {
  const source = image.source;
  let media: { mediaType: string; width: number | null; height: number | null };
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

/**
 * The raster type to send without `format`: the highest q-value wins; among equals the original (no
 * transcoding: a browser's `<img>` sends `image/avif,image/webp,…,image/*,*\/*;q=0.8`, which rates every type
 * 1, and gets the seeded PNG or JPEG as is), then WebP, PNG, JPEG. Nothing acceptable: the original.
 */
function negotiateRaster(accept: string | undefined, original: RasterType): RasterType {
  const ranges = acceptRanges(accept);
  let best: RasterType = original;
  let bestQ = 0;
  for (const type of [original, "image/webp", "image/png", "image/jpeg"] as const) {
    const q = quality(ranges, type);
    if (q > bestQ) {
      best = type;
      bestQ = q;
    }
  }
  return best;
}

function etag(parts: string): string {
  return `"${hash(parts).toString(16)}${(hash(`${parts}#`) >>> 8).toString(16)}"`;
}

function notModified(ctx: OperationContext, tag: string): boolean {
  const header = ctx.headers["if-none-match"];
  if (!header) return false;
  return header.trim() === "*" || header.split(",").some((v) => v.trim().replace(/^W\//, "") === tag);
}

function listImages(ctx: OperationContext): HandlerResult {
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
  const page = paginate(ctx, items, (i) => i.id);
  return {
    status: 200,
    body: { items: page.items.map((i) => metadataJson(ctx, i)), nextCursor: page.nextCursor },
  };
}

function getImageMetadata(ctx: OperationContext): HandlerResult {
  return { status: 200, body: metadataJson(ctx, imageOr404(ctx)) };
}

function getImage(ctx: OperationContext): HandlerResult {
  const image = imageOr404(ctx);
  const widthText = queryParam(ctx, "width");
  const width = widthText === undefined ? undefined : Number(widthText);
  const format = queryParam(ctx, "format");
  if (image.source.kind === "svg") {
    const tag = etag(`${image.id}|svg|${image.source.svg}`);
    const headers = { etag: tag, "cache-control": CACHE };
    if (notModified(ctx, tag)) return { status: 304, headers };
    return { status: 200, headers, contentType: "image/svg+xml", raw: image.source.svg };
  }
  const type: RasterType = format
    ? (`image/${format}` as RasterType)
    : negotiateRaster(ctx.headers.accept, image.source.original);
  const raster = image as ImageRecord & { source: { kind: "raster" } };
  const size = scaledSize(raster.source.recipe, width);
  const tag = etag(`${image.id}|${JSON.stringify(raster.source.recipe)}|${type}|${size.width}`);
  const headers: Record<string, string> = {
    etag: tag,
    "cache-control": CACHE,
    vary: "Accept, Accept-Language",
  };
  if (notModified(ctx, tag)) return { status: 304, headers };
  return { status: 200, headers, contentType: type, raw: rasterBytes(raster, type, width) };
}

function listIcons(ctx: OperationContext): HandlerResult {
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

function getIcon(ctx: OperationContext): HandlerResult {
  const name = ctx.params.iconName as string;
  const icon = ICONS.find((i) => i.name === name);
  if (!icon) ctx.problem("not-found", detail(ctx, "noIcon", { id: name }));
  const format = queryParam(ctx, "format") ?? "svg";
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
  const state = ctx.world[ASSETS] as AssetsState;
  const theme = resolveTheme(ctx.world, state.theme, input);
  if (theme === "unknown-event")
    ctx.problem("not-found", detail(ctx, "noEvent", { id: input.eventId ?? "" }));
  if (theme === "unknown-venue")
    ctx.problem("not-found", detail(ctx, "noVenue", { id: input.venueId ?? "" }));
  return theme;
}

function getTheme(ctx: OperationContext): HandlerResult {
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

function getTicketPdf(ctx: OperationContext): HandlerResult {
  const id = (ctx.params.ticketId as string).replace(/\.pdf$/, "");
  const ticket = shopTickets(ctx.world).find((x) => x.id === id);
  // Tickets are visible to whoever may see their order (the shop's rule: same client, same session).
  if (!ticket || !orderVisibleTo(ctx.world, ticket.orderId, ctx.auth))
    ctx.problem("not-found", detail(ctx, "noTicket", { id }));
  if (ticket.status === "cancelled") ctx.problem("conflict", detail(ctx, "ticketCancelled", { id }));
  const theme = themeFor(ctx, { eventId: ticket.eventId, channel: "pdf" });
  const pdf = ticketPdf(ctx.world, ticket, theme, ctx.culture, ctx.clock.now());
  const state = ctx.world[ASSETS] as AssetsState;
  const count = (state.downloads[id] ?? 0) + 1;
  state.downloads[id] = count;
  ctx.emit("ticket.downloaded", {
    ticket: webhookShopTicket(ctx, ticket),
    downloadCount: count,
  });
  return {
    status: 200,
    headers: { "content-disposition": `inline; filename="ticket-${ticket.id}.pdf"` },
    contentType: "application/pdf",
    raw: pdf,
  };
}

function getOrderReceipt(ctx: OperationContext): HandlerResult {
  const id = ctx.params.orderId as string;
  const order = shopOrders(ctx.world).find((o) => o.id === id);
  if (!order || !orderVisibleTo(ctx.world, id, ctx.auth))
    ctx.problem("not-found", detail(ctx, "noOrder", { id }));
  const theme = themeFor(ctx, { channel: "pdf" });
  return {
    status: 200,
    headers: { "content-disposition": `inline; filename="receipt-${order.id}.pdf"` },
    contentType: "application/pdf",
    raw: receiptPdf(ctx.world, order, theme, ctx.culture, ctx.clock.now()),
  };
}

/** Assets: images (SVG and generated rasters in PNG/JPEG/WebP), icons, ticket PDFs, receipts and themes. */
const assets: SectionModule<AssetsState> = {
  name: ASSETS,
  initialState(seed) {
    const own = seed[ASSETS] as { theme?: ThemeSeed } | undefined;
    return { theme: structuredClone(own?.theme ?? {}), downloads: {} };
  },
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
};

export default assets;
