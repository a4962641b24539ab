import { mulberry32 } from "../../core/ids.ts";
import type { Rgba } from "./png.ts";

/** A procedural picture: a diagonal gradient with soft discs, the same at every size (so scaling is exact). */
export interface RasterRecipe {
  width: number;
  height: number;
  from: string;
  to: string;
  /** Seed of the disc layout. */
  seed: number;
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Size for a requested width: aspect ratio kept, never enlarged. */
export function scaledSize(
  recipe: Pick<RasterRecipe, "width" | "height">,
  width?: number,
): { width: number; height: number } {
  if (width === undefined || width >= recipe.width) return { width: recipe.width, height: recipe.height };
  return { width, height: Math.max(1, Math.round((recipe.height * width) / recipe.width)) };
}

/** Render the recipe at the given size. */
export function renderRaster(recipe: RasterRecipe, width: number, height: number): Rgba {
  const data = new Uint8Array(width * height * 4);
  const a = rgb(recipe.from);
  const b = rgb(recipe.to);
  const rand = mulberry32(recipe.seed);
  const discs = Array.from({ length: 6 }, () => ({
    x: rand(),
    y: rand(),
    r: 0.08 + rand() * 0.25,
    k: 0.08 + rand() * 0.14,
  }));
  const aspect = recipe.width / recipe.height;
  for (let y = 0; y < height; y++) {
    const v = height === 1 ? 0 : y / (height - 1);
    for (let x = 0; x < width; x++) {
      const u = width === 1 ? 0 : x / (width - 1);
      const t = (u + v) / 2;
      let light = 0;
      for (const d of discs) {
        const dx = (u - d.x) * aspect;
        const dy = v - d.y;
        const dist = Math.sqrt(dx * dx + dy * dy);
        if (dist < d.r) light += d.k * (1 - dist / d.r);
      }
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) {
        const base = (a[c] as number) * (1 - t) + (b[c] as number) * t;
        data[i + c] = Math.min(255, Math.round(base + (255 - base) * light));
      }
      data[i + 3] = 255;
    }
  }
  return { width, height, data };
}

/** Icon geometry in a 24×24 box, stroked with width 2 (as in the SVG). */
export type IconShape =
  | { type: "line"; x1: number; y1: number; x2: number; y2: number }
  | { type: "circle"; cx: number; cy: number; r: number }
  | { type: "rect"; x: number; y: number; w: number; h: number; rx: number };

const STROKE = 2;

function segmentDistance(px: number, py: number, s: Extract<IconShape, { type: "line" }>): number {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - s.x1) * dx + (py - s.y1) * dy) / len2));
  const ex = px - (s.x1 + t * dx);
  const ey = py - (s.y1 + t * dy);
  return Math.sqrt(ex * ex + ey * ey);
}

function roundedRectDistance(px: number, py: number, s: Extract<IconShape, { type: "rect" }>): number {
  const hx = s.w / 2;
  const hy = s.h / 2;
  const qx = Math.abs(px - (s.x + hx)) - (hx - s.rx);
  const qy = Math.abs(py - (s.y + hy)) - (hy - s.rx);
  const outside = Math.sqrt(Math.max(qx, 0) ** 2 + Math.max(qy, 0) ** 2);
  return Math.abs(outside + Math.min(Math.max(qx, qy), 0) - s.rx);
}

/** Rasterize stroked shapes at `size` pixels with 4×4 supersampling; colour `rgb` on transparent. */
export function renderIcon(shapes: IconShape[], size: number, color = "#1a1a1a"): Rgba {
  const data = new Uint8Array(size * size * 4);
  const [r, g, b] = rgb(color);
  const scale = 24 / size;
  const half = STROKE / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let covered = 0;
      for (let sy = 0; sy < 4; sy++) {
        for (let sx = 0; sx < 4; sx++) {
          const px = (x + (sx + 0.5) / 4) * scale;
          const py = (y + (sy + 0.5) / 4) * scale;
          for (const s of shapes) {
            const d =
              s.type === "line"
                ? segmentDistance(px, py, s)
                : s.type === "circle"
                  ? Math.abs(Math.hypot(px - s.cx, py - s.cy) - s.r)
                  : roundedRectDistance(px, py, s);
            if (d <= half) {
              covered++;
              break;
            }
          }
        }
      }
      const i = (y * size + x) * 4;
      data[i] = r;
      data[i + 1] = g;
      data[i + 2] = b;
      data[i + 3] = Math.round((covered / 16) * 255);
    }
  }
  return { width: size, height: size, data };
}

/** The same shapes as an SVG using `currentColor`. */
export function iconSvg(shapes: IconShape[], title: string): string {
  const body = shapes
    .map((s) =>
      s.type === "line"
        ? `<line x1="${s.x1}" y1="${s.y1}" x2="${s.x2}" y2="${s.y2}"/>`
        : s.type === "circle"
          ? `<circle cx="${s.cx}" cy="${s.cy}" r="${s.r}"/>`
          : `<rect x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" rx="${s.rx}"/>`,
    )
    .join("");
  const safe = title.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="${STROKE}" stroke-linecap="round" stroke-linejoin="round" role="img"><title>${safe}</title>${body}</svg>`;
}
