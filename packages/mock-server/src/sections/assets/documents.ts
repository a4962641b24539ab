import { encode } from "uqr";
import { pickText } from "../../core/culture.ts";
import { msg } from "../../core/messages.ts";
import type { Culture, LocalizedText, World } from "../../core/types.ts";
import type { ShopOrderView, ShopTicketView } from "../shared/shop-view.ts";
import { shopEvent, shopPayments, shopVenues } from "../shared/shop-view.ts";
import { buildPdf, PdfPage, textWidth } from "./pdf.ts";
import type { ResolvedTheme } from "./theme.ts";

const TZ = "Europe/Zurich";
/** Swiss standard VAT rate, included in the prices. */
export const VAT_RATE = 0.081;

const L = {
  ticket: msg("assets.documents.ticket"),
  date: msg("assets.documents.date"),
  venue: msg("assets.documents.venue"),
  category: msg("assets.documents.category"),
  holder: msg("assets.documents.holder"),
  order: msg("assets.documents.order"),
  hint: msg("assets.documents.please-have-this-code-ready-at"),
  receipt: msg("assets.documents.receipt"),
  buyer: msg("assets.documents.buyer"),
  item: msg("assets.documents.item"),
  qty: msg("assets.documents.qty"),
  unit: msg("assets.documents.price"),
  amount: msg("assets.documents.amount"),
  total: msg("assets.documents.total"),
  vat: msg("assets.documents.incl-vat-8-1"),
  paidWith: msg("assets.documents.paid-with"),
  payment: msg("assets.documents.payment"),
  thanks: msg("assets.documents.thank-you-for-your-purchase"),
} satisfies Record<string, LocalizedText>;

const text = (v: LocalizedText | string | null | undefined, culture: Culture): string =>
  v === null || v === undefined ? "" : typeof v === "string" ? v : pickText(v, culture);

function when(iso: string | null | undefined, culture: Culture): string {
  if (!iso) return "";
  return new Intl.DateTimeFormat(culture, { dateStyle: "full", timeStyle: "short", timeZone: TZ }).format(
    Date.parse(iso),
  );
}

function money(minor: number, currency: string, culture: Culture): string {
  return new Intl.NumberFormat(culture, { style: "currency", currency }).format(minor / 100);
}

/** Break a text into lines that fit `width` points. */
function wrap(value: string, size: number, width: number, bold = false): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of value.split(/\s+/)) {
    const next = current ? `${current} ${word}` : word;
    if (textWidth(next, size, bold) > width && current) {
      lines.push(current);
      current = word;
    } else current = next;
  }
  if (current) lines.push(current);
  return lines;
}

/** The printable ticket: theme colour band, event, date, venue, article, holder, and the Quicode as a QR code. */
export function ticketPdf(
  world: World,
  ticket: ShopTicketView,
  theme: ResolvedTheme,
  culture: Culture,
  now: number,
): Uint8Array {
  const event = shopEvent(world, ticket.eventId);
  const slot = event?.slots.find((s) => s.id === ticket.slotId);
  const venue = shopVenues(world).find((v) => v.id === event?.venueId);
  const page = new PdfPage(420, 595);
  page.rect(0, 515, 420, 80, theme.colors.primary);
  page.text(28, 568, 10, text(L.ticket, culture).toUpperCase(), {
    color: theme.colors.onPrimary,
    bold: true,
  });
  const title = wrap(text(event?.name, culture) || ticket.eventId, 18, 364, true).slice(0, 2);
  for (const [i, line] of title.entries()) {
    page.text(28, 546 - i * 20, 18, line, { color: theme.colors.onPrimary, bold: true });
  }
  const rows: [LocalizedText, string][] = [
    [L.date, when(slot?.startsAt ?? event?.startsAt, culture)],
    [L.venue, [text(venue?.name, culture), text(venue?.city, culture)].filter(Boolean).join(", ")],
    [L.category, text(ticket.articleName, culture)],
    [L.holder, ticket.holderName ?? ""],
  ];
  let y = 488;
  for (const [label, value] of rows) {
    page.text(28, y, 8, text(label, culture).toUpperCase(), { color: "#6b7280", bold: true });
    page.text(28, y - 14, 11, value);
    y -= 36;
  }
  const qr = encode(ticket.quicode, { ecc: "M", border: 2 });
  page.qr(120, 330, 180, qr.data);
  page.text(210 - textWidth(ticket.quicode, 9) / 2, 134, 9, ticket.quicode);
  page.text(28, 112, 8, `${text(L.order, culture)} ${ticket.orderId} · ${ticket.id}`, { color: "#6b7280" });
  for (const [i, line] of wrap(text(L.hint, culture), 9, 364).entries()) {
    page.text(28, 90 - i * 12, 9, line, { color: "#374151" });
  }
  page.rect(0, 0, 420, 6, theme.colors.accent);
  return buildPdf([page], { title: `${text(L.ticket, culture)} ${ticket.id}`, date: now });
}

export interface ReceiptLine {
  name: string;
  quantity: number;
  unitMinor: number;
}

/** Order lines with localized names and the prices of the shop's articles in the order's currency. */
export function receiptLines(world: World, order: ShopOrderView, culture: Culture): ReceiptLine[] {
  const shop = (world.shop ?? {}) as {
    articles?: Record<string, { name?: LocalizedText; price?: Record<string, number> }>;
  };
  const items =
    (order.record.items as { articleId: string; eventId: string; quantity: number }[] | undefined) ?? [];
  return items.map((item) => {
    const article = shop.articles?.[item.articleId];
    const event = shopEvent(world, item.eventId);
    return {
      name: `${text(event?.name, culture)} – ${text(article?.name, culture)}`,
      quantity: item.quantity,
      unitMinor: article?.price?.[order.currency] ?? 0,
    };
  });
}

/** The receipt: buyer, lines, total with the included VAT, payment provider. */
export function receiptPdf(
  world: World,
  order: ShopOrderView,
  theme: ResolvedTheme,
  culture: Culture,
  now: number,
): Uint8Array {
  const page = new PdfPage(595, 842);
  const cur = order.currency;
  page.rect(0, 792, 595, 50, theme.colors.primary);
  page.text(40, 810, 20, text(L.receipt, culture), { color: theme.colors.onPrimary, bold: true });
  page.text(555, 810, 10, `${text(L.order, culture)} ${order.id}`, {
    color: theme.colors.onPrimary,
    align: "right",
  });
  page.text(40, 760, 10, when(order.createdAt, culture));
  const customer = (order.record.customer ?? {}) as {
    firstName?: string;
    lastName?: string;
    email?: string;
    company?: string;
  };
  page.text(40, 730, 8, text(L.buyer, culture).toUpperCase(), { color: "#6b7280", bold: true });
  const buyer = [
    `${customer.firstName ?? ""} ${customer.lastName ?? ""}`.trim(),
    customer.company ?? "",
    customer.email ?? "",
  ];
  for (const [i, line] of buyer.filter(Boolean).entries()) page.text(40, 716 - i * 14, 11, line);
  let y = 650;
  page.text(40, y, 9, text(L.item, culture), { bold: true });
  page.text(380, y, 9, text(L.qty, culture), { bold: true, align: "right" });
  page.text(465, y, 9, text(L.unit, culture), { bold: true, align: "right" });
  page.text(555, y, 9, text(L.amount, culture), { bold: true, align: "right" });
  page.line(40, y - 6, 555, y - 6);
  y -= 22;
  for (const line of receiptLines(world, order, culture)) {
    const amount = line.unitMinor * line.quantity;
    const names = wrap(line.name, 10, 300);
    for (const [i, n] of names.entries()) page.text(40, y - i * 12, 10, n);
    page.text(380, y, 10, String(line.quantity), { align: "right" });
    page.text(465, y, 10, money(line.unitMinor, cur, culture), { align: "right" });
    page.text(555, y, 10, money(amount, cur, culture), { align: "right" });
    y -= 12 * names.length + 10;
  }
  page.line(40, y + 4, 555, y + 4);
  page.text(465, y - 14, 12, text(L.total, culture), { bold: true, align: "right" });
  page.text(555, y - 14, 12, money(order.totalMinor, cur, culture), { bold: true, align: "right" });
  const vat = Math.round((order.totalMinor * VAT_RATE) / (1 + VAT_RATE));
  page.text(555, y - 30, 9, `${text(L.vat, culture)}: ${money(vat, cur, culture)}`, {
    align: "right",
    color: "#374151",
  });
  const payment = shopPayments(world).find((p) => p.orderId === order.id);
  const providers =
    (world.shop as { config?: { paymentProviders?: { id: string; name: LocalizedText }[] } } | undefined)
      ?.config?.paymentProviders ?? [];
  const provider = providers.find((p) => p.id === payment?.providerId);
  if (payment) {
    page.text(
      40,
      y - 60,
      10,
      `${text(L.paidWith, culture)}: ${text(provider?.name, culture) || payment.providerId || ""}`,
    );
    page.text(40, y - 74, 9, `${text(L.payment, culture)} ${payment.id}`, { color: "#6b7280" });
  }
  page.text(40, 60, 11, text(L.thanks, culture), { bold: true, color: theme.colors.primary });
  page.rect(0, 0, 595, 8, theme.colors.accent);
  return buildPdf([page], { title: `${text(L.receipt, culture)} ${order.id}`, date: now });
}
