import { msg } from "../../core/messages.ts";
import type { LocalizedText } from "../../core/types.ts";
import type { IconShape } from "./raster.ts";

const line = (x1: number, y1: number, x2: number, y2: number): IconShape => ({
  type: "line",
  x1,
  y1,
  x2,
  y2,
});
const circle = (cx: number, cy: number, r: number): IconShape => ({ type: "circle", cx, cy, r });
const rect = (x: number, y: number, w: number, h: number, rx = 2): IconShape => ({
  type: "rect",
  x,
  y,
  w,
  h,
  rx,
});

export interface IconDef {
  name: string;
  label: LocalizedText;
  shapes: IconShape[];
}

/** The icon set of the shop front end and ticket PDFs (geometry shared by the SVG and PNG renderings). */
export const ICONS: readonly IconDef[] = [
  {
    name: "ticket",
    label: msg("assets.documents.ticket"),
    shapes: [rect(2, 6, 20, 12, 2), line(15, 6, 15, 18), line(6, 10, 11, 10), line(6, 14, 11, 14)],
  },
  {
    name: "calendar",
    label: msg("assets.documents.date"),
    shapes: [rect(3, 5, 18, 16, 2), line(3, 10, 21, 10), line(8, 3, 8, 7), line(16, 3, 16, 7)],
  },
  {
    name: "map-pin",
    label: msg("assets.documents.venue"),
    shapes: [circle(12, 10, 3), line(12, 21, 6, 13), line(12, 21, 18, 13), circle(12, 10, 7)],
  },
  {
    name: "clock",
    label: msg("assets.icons.time"),
    shapes: [circle(12, 12, 9), line(12, 7, 12, 12), line(12, 12, 15, 14)],
  },
  {
    name: "user",
    label: msg("assets.icons.person"),
    shapes: [circle(12, 8, 4), line(4, 21, 8, 15), line(8, 15, 16, 15), line(16, 15, 20, 21)],
  },
  {
    name: "cart",
    label: msg("assets.icons.basket"),
    shapes: [
      line(2, 3, 5, 3),
      line(5, 3, 8, 15),
      line(8, 15, 19, 15),
      line(19, 15, 21, 7),
      line(21, 7, 6, 7),
      circle(9, 20, 1.5),
      circle(18, 20, 1.5),
    ],
  },
  {
    name: "check",
    label: msg("assets.icons.confirmed"),
    shapes: [line(4, 12, 9, 17), line(9, 17, 20, 6)],
  },
  {
    name: "close",
    label: msg("assets.icons.close"),
    shapes: [line(6, 6, 18, 18), line(18, 6, 6, 18)],
  },
  {
    name: "info",
    label: msg("assets.icons.information"),
    shapes: [circle(12, 12, 9), line(12, 11, 12, 16), line(12, 8, 12, 8)],
  },
  {
    name: "qr-code",
    label: msg("assets.icons.qr-code"),
    shapes: [
      rect(3, 3, 7, 7, 1),
      rect(14, 3, 7, 7, 1),
      rect(3, 14, 7, 7, 1),
      line(14, 14, 14, 17),
      line(17, 14, 21, 14),
      line(17, 18, 21, 21),
      line(14, 21, 14, 21),
    ],
  },
  {
    name: "arrow-right",
    label: msg("assets.icons.next"),
    shapes: [line(4, 12, 20, 12), line(14, 6, 20, 12), line(14, 18, 20, 12)],
  },
  {
    name: "download",
    label: msg("assets.icons.download"),
    shapes: [line(12, 3, 12, 15), line(7, 10, 12, 15), line(17, 10, 12, 15), line(4, 20, 20, 20)],
  },
];
