import type { Rgba } from "./png.ts";

/**
 * A lossless WebP (VP8L) writer in pure TypeScript. It uses the parts of the format that matter for the mock's
 * smooth, procedural pictures: the subtract-green transform, the predictor transform (per 32×32 block the best of
 * left, top and their average), backward references to the pixel on the left or above (runs of equal residuals),
 * and Huffman codes built from the image's own statistics. No colour cache, no meta prefix codes. A 960×320
 * gradient banner comes out at a few tens of kilobytes, in the range of the PNG, instead of 4 bytes per pixel.
 * Checked against libwebp's `dwebp` (lossless round trip).
 */

class LsbWriter {
  private buffer = new Uint8Array(1 << 16);
  private length = 0;
  private acc = 0;
  private n = 0;

  /** Appends `bits` (≤ 24) bits of `value`, least significant first. */
  write(value: number, bits: number): void {
    this.acc += value * 2 ** this.n;
    this.n += bits;
    while (this.n >= 8) {
      if (this.length === this.buffer.length) {
        const grown = new Uint8Array(this.buffer.length * 2);
        grown.set(this.buffer);
        this.buffer = grown;
      }
      this.buffer[this.length++] = this.acc & 0xff;
      this.acc = Math.floor(this.acc / 256);
      this.n -= 8;
    }
  }

  finish(): Uint8Array {
    if (this.n > 0) this.write(0, 8 - this.n);
    return this.buffer.subarray(0, this.length);
  }
}

/** A prefix code: per symbol its length and its bits, reversed for the LSB-first stream. */
interface PrefixCode {
  lengths: Uint8Array;
  codes: Uint16Array;
  /** Exactly one symbol in use: decoders read zero bits for it. */
  single: boolean;
}

/** Huffman code lengths for `counts`, at most `limit` bits (counts are flattened until the tree fits). */
function codeLengths(counts: ArrayLike<number>, limit: number): Uint8Array {
  const lengths = new Uint8Array(counts.length);
  const used: number[] = [];
  for (let s = 0; s < counts.length; s++) if ((counts[s] as number) > 0) used.push(s);
  if (used.length === 1) lengths[used[0] as number] = 1;
  if (used.length <= 1) return lengths;
  let weights = used.map((s) => counts[s] as number);
  for (;;) {
    // Two-queue Huffman construction over leaves sorted by weight; parents are created in weight order.
    const order = weights.map((_, i) => i).sort((a, b) => (weights[a] as number) - (weights[b] as number));
    const total = used.length * 2 - 1;
    const weight = new Float64Array(total);
    const parent = new Int32Array(total).fill(-1);
    order.forEach((leaf, i) => {
      weight[i] = weights[leaf] as number;
    });
    let leafNext = 0;
    let nodeNext = used.length;
    let created = used.length;
    const take = (): number => {
      if (
        leafNext < used.length &&
        (nodeNext >= created || (weight[leafNext] as number) <= (weight[nodeNext] as number))
      )
        return leafNext++;
      return nodeNext++;
    };
    while (created < total) {
      const a = take();
      const b = take();
      weight[created] = (weight[a] as number) + (weight[b] as number);
      parent[a] = created;
      parent[b] = created;
      created++;
    }
    const depth = new Uint8Array(total);
    for (let i = total - 2; i >= 0; i--) depth[i] = (depth[parent[i] as number] as number) + 1;
    let max = 0;
    for (let i = 0; i < used.length; i++) max = Math.max(max, depth[i] as number);
    if (max <= limit) {
      order.forEach((leaf, i) => {
        lengths[used[leaf] as number] = depth[i] as number;
      });
      return lengths;
    }
    weights = weights.map((w) => Math.max(1, w >> 1));
  }
}

function reverseBits(value: number, bits: number): number {
  let r = 0;
  for (let i = 0; i < bits; i++) r |= ((value >> i) & 1) << (bits - 1 - i);
  return r;
}

/** Canonical codes for the lengths (as in DEFLATE), bit-reversed for writing. */
function canonical(lengths: Uint8Array): PrefixCode {
  const count = new Uint16Array(16);
  let used = 0;
  for (const l of lengths) {
    if (l > 0) {
      count[l] = (count[l] as number) + 1;
      used++;
    }
  }
  const next = new Uint16Array(16);
  let code = 0;
  for (let bits = 1; bits < 16; bits++) {
    code = (code + (count[bits - 1] as number)) << 1;
    next[bits] = code;
  }
  const codes = new Uint16Array(lengths.length);
  for (let s = 0; s < lengths.length; s++) {
    const l = lengths[s] as number;
    if (l === 0) continue;
    codes[s] = reverseBits(next[l] as number, l);
    next[l] = (next[l] as number) + 1;
  }
  return { lengths, codes, single: used === 1 };
}

function writeSymbol(w: LsbWriter, code: PrefixCode, symbol: number): void {
  if (code.single) return;
  w.write(code.codes[symbol] as number, code.lengths[symbol] as number);
}

/** Code-length code order of the VP8L spec. */
const CODE_LENGTH_ORDER = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/** Builds a prefix code from a histogram and writes its description; returns the code for the symbols. */
function writePrefixCode(w: LsbWriter, counts: Uint32Array): PrefixCode {
  const used: number[] = [];
  for (let s = 0; s < counts.length && used.length < 3; s++) if ((counts[s] as number) > 0) used.push(s);
  if (used.length === 0) used.push(0);
  if (used.length === 1 && (used[0] as number) < 256) {
    // Simple code with one symbol: it costs no bits at all.
    const symbol = used[0] as number;
    w.write(1, 1); // simple
    w.write(0, 1); // one symbol
    if (symbol < 2) {
      w.write(0, 1);
      w.write(symbol, 1);
    } else {
      w.write(1, 1);
      w.write(symbol, 8);
    }
    const lengths = new Uint8Array(counts.length);
    lengths[symbol] = 1;
    return { lengths, codes: new Uint16Array(counts.length), single: true };
  }
  const code = canonical(codeLengths(counts, 15));
  // The lengths themselves, with a code-length code (literal lengths 0–15 only) limited to 7 bits.
  const lengthCounts = new Uint32Array(19);
  for (const l of code.lengths) lengthCounts[l] = (lengthCounts[l] as number) + 1;
  const lengthCode = canonical(codeLengths(lengthCounts, 7));
  w.write(0, 1); // normal code
  let last = 3;
  for (let i = 0; i < CODE_LENGTH_ORDER.length; i++)
    if ((lengthCode.lengths[CODE_LENGTH_ORDER[i] as number] as number) > 0) last = Math.max(last, i);
  w.write(last + 1 - 4, 4);
  for (let i = 0; i <= last; i++) w.write(lengthCode.lengths[CODE_LENGTH_ORDER[i] as number] as number, 3);
  w.write(0, 1); // max_symbol: the whole alphabet
  for (const l of code.lengths) writeSymbol(w, lengthCode, l);
  return code;
}

/** LZ77-style prefix coding of lengths and distance codes: (symbol, extra bit count, extra bits). */
function prefixEncode(value: number): [number, number, number] {
  const v = value - 1;
  if (v < 4) return [v, 0, 0];
  const h = 31 - Math.clz32(v);
  const second = (v >> (h - 1)) & 1;
  return [2 * h + second, h - 1, v & ((1 << (h - 1)) - 1)];
}

const BLOCK_BITS = 5;
const MAX_COPY = 4096;
const HASH_BITS = 15;
const CHAIN_DEPTH = 24;
/** Farthest copy source (well inside the distance prefix codes' range). */
const MAX_DISTANCE = 1 << 18;
/** Predictor modes tried per block: 1 = left, 2 = top, 7 = average of left and top. */
const MODES = [1, 2, 7] as const;

function average(a: number, b: number): number {
  return ((((a ^ b) & 0xfefefefe) >>> 1) + (a & b)) >>> 0;
}

function subPixels(a: number, b: number): number {
  const ag = 0x00ff00ff + (a & 0xff00ff00) - (b & 0xff00ff00);
  const rb = 0xff00ff00 + (a & 0x00ff00ff) - (b & 0x00ff00ff);
  return ((ag & 0xff00ff00) | (rb & 0x00ff00ff)) >>> 0;
}

function predict(argb: Uint32Array, width: number, x: number, y: number, mode: number): number {
  const i = y * width + x;
  if (x === 0 && y === 0) return 0xff000000;
  if (y === 0) return argb[i - 1] as number;
  if (x === 0) return argb[i - width] as number;
  const left = argb[i - 1] as number;
  const top = argb[i - width] as number;
  return mode === 1 ? left : mode === 2 ? top : average(left, top);
}

function channelCost(residual: number): number {
  let cost = 0;
  for (let shift = 0; shift < 32; shift += 8) {
    const c = (residual >>> shift) & 0xff;
    cost += c < 128 ? c : 256 - c;
  }
  return cost;
}

/**
 * Encode RGBA pixels as a lossless WebP.
 * @example encodeWebp({ width: 2, height: 2, data })
 */
export function encodeWebp(image: Rgba): Uint8Array {
  const { width, height, data } = image;
  if (width < 1 || height < 1 || width > 16384 || height > 16384)
    throw new RangeError("WebP dimensions out of range");
  const n = width * height;
  // ARGB words with the subtract-green transform applied (red and blue minus green).
  const argb = new Uint32Array(n);
  let alpha = false;
  for (let i = 0; i < n; i++) {
    const r = data[i * 4] as number;
    const g = data[i * 4 + 1] as number;
    const b = data[i * 4 + 2] as number;
    const a = data[i * 4 + 3] as number;
    if (a !== 255) alpha = true;
    argb[i] = ((a << 24) | (((r - g) & 0xff) << 16) | (g << 8) | ((b - g) & 0xff)) >>> 0;
  }

  // Predictor: per block the mode with the smallest residuals.
  const blocksX = Math.ceil(width / (1 << BLOCK_BITS));
  const blocksY = Math.ceil(height / (1 << BLOCK_BITS));
  const modes = new Uint8Array(blocksX * blocksY);
  for (let by = 0; by < blocksY; by++) {
    for (let bx = 0; bx < blocksX; bx++) {
      let best: number = MODES[0];
      let bestCost = Number.POSITIVE_INFINITY;
      for (const mode of MODES) {
        let cost = 0;
        const yEnd = Math.min(height, (by + 1) << BLOCK_BITS);
        const xEnd = Math.min(width, (bx + 1) << BLOCK_BITS);
        for (let y = by << BLOCK_BITS; y < yEnd && cost < bestCost; y++)
          for (let x = bx << BLOCK_BITS; x < xEnd; x++)
            cost += channelCost(subPixels(argb[y * width + x] as number, predict(argb, width, x, y, mode)));
        if (cost < bestCost) {
          bestCost = cost;
          best = mode;
        }
      }
      modes[by * blocksX + bx] = best;
    }
  }
  const residual = new Uint32Array(n);
  for (let y = 0; y < height; y++) {
    const row = (y >> BLOCK_BITS) * blocksX;
    for (let x = 0; x < width; x++) {
      const mode = modes[row + (x >> BLOCK_BITS)] as number;
      residual[y * width + x] = subPixels(argb[y * width + x] as number, predict(argb, width, x, y, mode));
    }
  }

  const w = new LsbWriter();
  w.write(0x2f, 8); // VP8L signature
  w.write(width - 1, 14);
  w.write(height - 1, 14);
  w.write(alpha ? 1 : 0, 1);
  w.write(0, 3); // version
  // Transforms, in the order the encoder applied them (the decoder undoes them in reverse).
  w.write(1, 1);
  w.write(2, 2); // subtract green
  w.write(1, 1);
  w.write(0, 2); // predictor
  w.write(BLOCK_BITS - 2, 3);
  writeImage(
    w,
    Uint32Array.from(modes, (m) => (0xff000000 | (m << 8)) >>> 0),
    blocksX,
    false,
  );
  w.write(0, 1); // no more transforms
  writeImage(w, residual, width, true);

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

/**
 * One entropy-coded image: no colour cache, for the main image no meta prefix codes; backward references (to
 * the pixel on the left or the one above) only when `copies`.
 */
function writeImage(w: LsbWriter, pixels: Uint32Array, width: number, copies: boolean): void {
  // Tokens: a literal pixel (length 0) or a copy (length, distance code: 1 = above, 2 = left, d + 120 = d back).
  const lengths = new Uint16Array(pixels.length);
  const distances = new Uint32Array(pixels.length);
  // Hash chains over pairs of pixels, for copies from further back.
  const head = new Int32Array(1 << HASH_BITS).fill(-1);
  const chain = new Int32Array(pixels.length);
  const hashAt = (i: number) =>
    (Math.imul((pixels[i] as number) ^ Math.imul(pixels[i + 1] as number, 0x9e3779b1), 0x85ebca6b) >>> 0) >>>
    (32 - HASH_BITS);
  let hashed = 0;
  const green = new Uint32Array(256 + 24);
  const red = new Uint32Array(256);
  const blue = new Uint32Array(256);
  const alphaCounts = new Uint32Array(256);
  const distance = new Uint32Array(40);
  for (let i = 0; i < pixels.length; ) {
    let length = 0;
    let code = 0;
    if (copies) {
      for (const [d, c] of [
        [1, 2],
        [width, 1],
      ] as const) {
        if (i < d) continue;
        let k = 0;
        const max = Math.min(MAX_COPY, pixels.length - i);
        while (k < max && pixels[i + k] === pixels[i + k - d]) k++;
        if (k > length) {
          length = k;
          code = c;
        }
      }
      // Earlier occurrences of the next two pixels (newest first, a bounded number of candidates).
      for (; hashed < i && hashed + 1 < pixels.length; hashed++) {
        const h = hashAt(hashed);
        chain[hashed] = head[h] as number;
        head[h] = hashed;
      }
      if (i + 1 < pixels.length && length < MAX_COPY) {
        const max = Math.min(MAX_COPY, pixels.length - i);
        let candidate = head[hashAt(i)] as number;
        for (let tries = 0; candidate >= 0 && tries < CHAIN_DEPTH; tries++) {
          const d = i - candidate;
          if (d > MAX_DISTANCE) break;
          let k = 0;
          while (k < max && pixels[i + k] === pixels[candidate + k]) k++;
          // A plane code (left, above) is cheaper: prefer it at equal length.
          if (k > length) {
            length = k;
            code = d === 1 ? 2 : d === width ? 1 : d + 120;
          }
          candidate = chain[candidate] as number;
        }
      }
    }
    if (length >= 3) {
      lengths[i] = length;
      distances[i] = code;
      const [lengthSymbol] = prefixEncode(length);
      green[256 + lengthSymbol] = (green[256 + lengthSymbol] as number) + 1;
      const [distanceSymbol] = prefixEncode(code);
      distance[distanceSymbol] = (distance[distanceSymbol] as number) + 1;
      i += length;
    } else {
      const p = pixels[i] as number;
      green[(p >>> 8) & 0xff] = (green[(p >>> 8) & 0xff] as number) + 1;
      red[(p >>> 16) & 0xff] = (red[(p >>> 16) & 0xff] as number) + 1;
      blue[p & 0xff] = (blue[p & 0xff] as number) + 1;
      alphaCounts[p >>> 24] = (alphaCounts[p >>> 24] as number) + 1;
      i++;
    }
  }
  w.write(0, 1); // no colour cache
  if (copies) w.write(0, 1); // main image: no meta prefix codes
  const codes = [green, red, blue, alphaCounts, distance].map((counts) => writePrefixCode(w, counts));
  const [g, r, b, a, dist] = codes as [PrefixCode, PrefixCode, PrefixCode, PrefixCode, PrefixCode];
  for (let i = 0; i < pixels.length; ) {
    const length = lengths[i] as number;
    if (length > 0) {
      const [lengthSymbol, lengthBits, lengthExtra] = prefixEncode(length);
      writeSymbol(w, g, 256 + lengthSymbol);
      w.write(lengthExtra, lengthBits);
      const [distanceSymbol, distanceBits, distanceExtra] = prefixEncode(distances[i] as number);
      writeSymbol(w, dist, distanceSymbol);
      w.write(distanceExtra, distanceBits);
      i += length;
    } else {
      const p = pixels[i] as number;
      writeSymbol(w, g, (p >>> 8) & 0xff);
      writeSymbol(w, r, (p >>> 16) & 0xff);
      writeSymbol(w, b, p & 0xff);
      writeSymbol(w, a, p >>> 24);
      i++;
    }
  }
}
