/**
 * PNG encoding through fast-png (a kept library, pure JS on fflate, so it runs in Node, browsers and workers).
 * The mock renders its pictures procedurally (`raster.ts`) and serves them as PNG; it has no codecs of its own.
 */
import { encode } from "fast-png";

/** An RGBA image: `width × height × 4` bytes, row by row. */
export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The image as an 8-bit RGBA PNG. */
export function encodePng(image: Rgba): Uint8Array {
  return encode({ width: image.width, height: image.height, data: image.data, channels: 4, depth: 8 });
}
