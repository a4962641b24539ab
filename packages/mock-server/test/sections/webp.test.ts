import { describe, expect, it } from "vitest";
import { encodePng, type Rgba } from "../../src/sections/assets/encode/png.ts";
import { encodeWebp } from "../../src/sections/assets/encode/webp.ts";
import { ICONS } from "../../src/sections/assets/icons.ts";
import { renderIcon, renderRaster } from "../../src/sections/assets/raster.ts";
import { decodeVp8l } from "./vp8l-decode.ts";

const banner = { width: 960, height: 320, from: "#0b5fff", to: "#ff7a00", seed: 1 };
const photo = { width: 640, height: 427, from: "#3e2723", to: "#ffcc80", seed: 7 };

function noise(width: number, height: number, seed: number): Rgba {
  let s = seed;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    data[i] = s >>> 24;
  }
  return { width, height, data };
}

const cases: Array<[string, Rgba]> = [
  ["banner 960×320", renderRaster(banner, 960, 320)],
  ["photo 640×427", renderRaster(photo, 640, 427)],
  ["photo scaled to 17×11", renderRaster(photo, 17, 11)],
  ["1×1", renderRaster(photo, 1, 1)],
  ["icon with alpha", renderIcon((ICONS[0] as (typeof ICONS)[number]).shapes, 48)],
  ["random noise with alpha", noise(37, 23, 42)],
  [
    "flat 5000×2 (copies longer than 4096 pixels)",
    { width: 5000, height: 2, data: new Uint8Array(40_000).fill(200) },
  ],
  ["one column 1×300", renderRaster({ ...photo, width: 1, height: 300 }, 1, 300)],
];

describe("lossless WebP (VP8L) encoder", () => {
  for (const [name, image] of cases) {
    it(`round-trips ${name} pixel for pixel`, () => {
      const decoded = decodeVp8l(encodeWebp(image));
      expect([decoded.width, decoded.height]).toEqual([image.width, image.height]);
      expect(Buffer.from(decoded.data).equals(Buffer.from(image.data))).toBe(true);
    });
  }

  it("compresses the smooth pictures below their PNG size (not 4 bytes a pixel)", () => {
    for (const image of [renderRaster(banner, 960, 320), renderRaster(photo, 640, 427)]) {
      const webp = encodeWebp(image);
      expect(webp.length).toBeLessThan(encodePng(image).length);
      expect(webp.length).toBeLessThan(image.width * image.height * 0.5);
    }
  });
});
