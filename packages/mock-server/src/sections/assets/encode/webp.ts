import type { Rgba } from "./png.ts";

/**
 * A minimal lossless WebP (VP8L) writer: no transforms, no colour cache, no back-references, and fixed 8-bit
 * prefix codes, so every pixel costs 32 bits. Larger than libwebp's output, but a valid WebP that every decoder
 * reads, in pure TypeScript.
 */

class LsbWriter {
  private bytes: number[] = [];
  private acc = 0;
  private n = 0;
  write(value: number, bits: number): void {
    for (let i = 0; i < bits; i++) {
      this.acc |= ((value >>> i) & 1) << this.n;
      this.n++;
      if (this.n === 8) {
        this.bytes.push(this.acc);
        this.acc = 0;
        this.n = 0;
      }
    }
  }
  finish(): number[] {
    if (this.n > 0) this.bytes.push(this.acc);
    this.acc = 0;
    this.n = 0;
    return this.bytes;
  }
}

const REVERSED = (() => {
  const t = new Uint8Array(256);
  for (let i = 0; i < 256; i++) {
    let r = 0;
    for (let b = 0; b < 8; b++) r |= ((i >> b) & 1) << (7 - b);
    t[i] = r;
  }
  return t;
})();

/** Code-length code order of the VP8L spec. */
const CODE_LENGTH_ORDER = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8];

/**
 * A "normal" prefix code where the first 256 symbols have length 8 and the rest (up to `alphabet`) length 0.
 * Code lengths are themselves coded with a 2-symbol code-length code: `0` → bit 0, `8` → bit 1.
 */
function writeEightBitCode(w: LsbWriter, alphabet: number): void {
  w.write(0, 1); // normal (not simple) code
  w.write(CODE_LENGTH_ORDER.length - 4, 4);
  for (const symbol of CODE_LENGTH_ORDER) w.write(symbol === 0 || symbol === 8 ? 1 : 0, 3);
  w.write(0, 1); // max_symbol = alphabet size
  for (let s = 0; s < alphabet; s++) w.write(s < 256 ? 1 : 0, 1);
}

/**
 * Encode RGBA pixels as a lossless WebP.
 * @example encodeWebp({ width: 2, height: 2, data })
 */
export function encodeWebp(image: Rgba): Uint8Array {
  const { width, height, data } = image;
  if (width < 1 || height < 1 || width > 16384 || height > 16384)
    throw new RangeError("WebP dimensions out of range");
  const w = new LsbWriter();
  w.write(0x2f, 8); // VP8L signature
  w.write(width - 1, 14);
  w.write(height - 1, 14);
  let alpha = false;
  for (let i = 3; i < data.length; i += 4) {
    if (data[i] !== 255) {
      alpha = true;
      break;
    }
  }
  w.write(alpha ? 1 : 0, 1);
  w.write(0, 3); // version
  w.write(0, 1); // no transforms
  w.write(0, 1); // no colour cache
  w.write(0, 1); // no meta prefix codes
  writeEightBitCode(w, 256 + 24); // green + length prefixes
  writeEightBitCode(w, 256); // red
  writeEightBitCode(w, 256); // blue
  writeEightBitCode(w, 256); // alpha
  // Distance: a simple code with one symbol (never used).
  w.write(1, 1);
  w.write(0, 1);
  w.write(0, 1);
  w.write(0, 1);
  for (let i = 0; i < data.length; i += 4) {
    // Canonical codes of 256 equal-length symbols are the symbols themselves, sent most significant bit first.
    w.write(REVERSED[data[i + 1] as number] as number, 8);
    w.write(REVERSED[data[i] as number] as number, 8);
    w.write(REVERSED[data[i + 2] as number] as number, 8);
    w.write(REVERSED[data[i + 3] as number] as number, 8);
  }
  const payload = w.finish();
  const padded = payload.length + (payload.length & 1);
  const out = new Uint8Array(20 + padded);
  const view = new DataView(out.buffer);
  out.set([0x52, 0x49, 0x46, 0x46], 0); // RIFF
  view.setUint32(4, 12 + padded, true);
  out.set([0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x4c], 8); // WEBPVP8L
  view.setUint32(16, payload.length, true);
  out.set(payload, 20);
  return out;
}
