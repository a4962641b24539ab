/**
 * A lossless WebP (VP8L) decoder written from the format specification (RFC 9649 §3), for round-trip tests of the
 * mock's encoder. It reads every prefix-code form (simple and normal, code-length repeats, max_symbol) and the
 * predictor and subtract-green transforms; it rejects what the encoder never writes (colour cache, meta prefix
 * codes, other transforms, predictor modes other than 0, 1, 2 and 7, 2-D distance codes other than 1 and 2).
 */

class BitReader {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}
  read(bits: number): number {
    let value = 0;
    for (let i = 0; i < bits; i++) {
      const byte = this.bytes[this.pos >> 3];
      if (byte === undefined) throw new Error("VP8L: read past the end");
      value += ((byte >> (this.pos & 7)) & 1) * 2 ** i;
      this.pos++;
    }
    return value;
  }
}

interface Code {
  /** `${length}:${code}` → symbol. */
  table: Map<string, number>;
  single: number | null;
}

function buildCode(lengths: number[]): Code {
  const used = lengths.map((l, s) => [l, s] as const).filter(([l]) => l > 0);
  if (used.length === 0) throw new Error("VP8L: empty prefix code");
  if (used.length === 1) return { table: new Map(), single: (used[0] as readonly [number, number])[1] };
  const count = new Array<number>(16).fill(0);
  for (const [l] of used) count[l] = (count[l] as number) + 1;
  const next = new Array<number>(16).fill(0);
  let code = 0;
  for (let bits = 1; bits < 16; bits++) {
    code = (code + (count[bits - 1] as number)) << 1;
    next[bits] = code;
  }
  // Kraft: the code must be complete.
  let kraft = 0;
  for (const [l] of used) kraft += 2 ** -l;
  if (kraft !== 1) throw new Error(`VP8L: incomplete prefix code (Kraft sum ${kraft})`);
  const table = new Map<string, number>();
  lengths.forEach((l, s) => {
    if (l === 0) return;
    table.set(`${l}:${next[l]}`, s);
    next[l] = (next[l] as number) + 1;
  });
  return { table, single: null };
}

function decodeSymbol(r: BitReader, code: Code): number {
  if (code.single !== null) return code.single;
  let value = 0;
  for (let length = 1; length <= 15; length++) {
    value = (value << 1) | r.read(1);
    const symbol = code.table.get(`${length}:${value}`);
    if (symbol !== undefined) return symbol;
  }
  throw new Error("VP8L: invalid prefix code in the data");
}

const ORDER = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

function readCode(r: BitReader, alphabet: number): Code {
  const lengths = new Array<number>(alphabet).fill(0);
  if (r.read(1) === 1) {
    const symbols = r.read(1) + 1;
    const first = r.read(r.read(1) === 1 ? 8 : 1);
    lengths[first] = 1;
    if (symbols === 2) lengths[r.read(8)] = 1;
    return buildCode(lengths);
  }
  const codeLengthLengths = new Array<number>(19).fill(0);
  const n = r.read(4) + 4;
  for (let i = 0; i < n; i++) codeLengthLengths[ORDER[i] as number] = r.read(3);
  const lengthCode = buildCode(codeLengthLengths);
  let max = alphabet;
  if (r.read(1) === 1) max = 2 + r.read(2 + 2 * r.read(3));
  let symbol = 0;
  let previous = 8;
  while (symbol < alphabet && max-- > 0) {
    const l = decodeSymbol(r, lengthCode);
    if (l < 16) {
      lengths[symbol++] = l;
      if (l !== 0) previous = l;
    } else {
      const repeat = l === 16 ? 3 + r.read(2) : l === 17 ? 3 + r.read(3) : 11 + r.read(7);
      for (let k = 0; k < repeat; k++) lengths[symbol++] = l === 16 ? previous : 0;
    }
  }
  return buildCode(lengths);
}

function prefixValue(r: BitReader, symbol: number): number {
  if (symbol < 4) return symbol + 1;
  const extra = (symbol - 2) >> 1;
  return ((2 + (symbol & 1)) << extra) + r.read(extra) + 1;
}

function decodeImage(r: BitReader, width: number, height: number, main: boolean): Uint32Array {
  if (r.read(1) === 1) throw new Error("VP8L: colour cache not supported by this test decoder");
  if (main && r.read(1) === 1) throw new Error("VP8L: meta prefix codes not supported by this test decoder");
  const [green, red, blue, alpha, distance] = [280, 256, 256, 256, 40].map((a) => readCode(r, a)) as [
    Code,
    Code,
    Code,
    Code,
    Code,
  ];
  const pixels = new Uint32Array(width * height);
  for (let i = 0; i < pixels.length; ) {
    const g = decodeSymbol(r, green);
    if (g < 256) {
      const red8 = decodeSymbol(r, red);
      const blue8 = decodeSymbol(r, blue);
      const alpha8 = decodeSymbol(r, alpha);
      pixels[i++] = ((alpha8 << 24) | (red8 << 16) | (g << 8) | blue8) >>> 0;
      continue;
    }
    const length = prefixValue(r, g - 256);
    const code = prefixValue(r, decodeSymbol(r, distance));
    const back = code > 120 ? code - 120 : code === 1 ? width : code === 2 ? 1 : Number.NaN;
    if (!Number.isFinite(back))
      throw new Error(`VP8L: distance code ${code} not supported by this test decoder`);
    if (back > i || i + length > pixels.length) throw new Error("VP8L: copy out of range");
    for (let k = 0; k < length; k++, i++) pixels[i] = pixels[i - back] as number;
  }
  return pixels;
}

const channelAdd = (a: number, b: number) => {
  let out = 0;
  for (let shift = 0; shift < 32; shift += 8)
    out |= ((((a >>> shift) + (b >>> shift)) & 0xff) << shift) >>> 0;
  return out >>> 0;
};
const channelAverage = (a: number, b: number) => {
  let out = 0;
  for (let shift = 0; shift < 32; shift += 8)
    out |= ((((a >>> shift) & 0xff) + ((b >>> shift) & 0xff)) >> 1) << shift;
  return out >>> 0;
};

/** Decodes a RIFF WebP with a VP8L chunk into RGBA bytes. */
export function decodeVp8l(file: Uint8Array): { width: number; height: number; data: Uint8Array } {
  const ascii = (a: number, b: number) => String.fromCharCode(...file.slice(a, b));
  if (ascii(0, 4) !== "RIFF" || ascii(8, 16) !== "WEBPVP8L") throw new Error("not a VP8L WebP");
  const r = new BitReader(file.subarray(20));
  if (r.read(8) !== 0x2f) throw new Error("VP8L: bad signature");
  const width = r.read(14) + 1;
  const height = r.read(14) + 1;
  r.read(1); // alpha hint
  if (r.read(3) !== 0) throw new Error("VP8L: bad version");
  const transforms: Array<{ type: 0; bits: number; modes: Uint32Array } | { type: 2 }> = [];
  while (r.read(1) === 1) {
    const type = r.read(2);
    if (type === 0) {
      const bits = r.read(3) + 2;
      const modes = decodeImage(r, Math.ceil(width / 2 ** bits), Math.ceil(height / 2 ** bits), false);
      transforms.push({ type: 0, bits, modes });
    } else if (type === 2) transforms.push({ type: 2 });
    else throw new Error(`VP8L: transform ${type} not supported by this test decoder`);
  }
  const argb = decodeImage(r, width, height, true);
  for (const t of transforms.reverse()) {
    if (t.type === 2) {
      for (let i = 0; i < argb.length; i++) {
        const p = argb[i] as number;
        const g = (p >>> 8) & 0xff;
        argb[i] = ((p & 0xff00ff00) | ((((p >>> 16) + g) & 0xff) << 16) | (((p & 0xff) + g) & 0xff)) >>> 0;
      }
      continue;
    }
    const blocksX = Math.ceil(width / 2 ** t.bits);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        let prediction: number;
        if (x === 0 && y === 0) prediction = 0xff000000;
        else if (y === 0) prediction = argb[i - 1] as number;
        else if (x === 0) prediction = argb[i - width] as number;
        else {
          const mode = ((t.modes[(y >> t.bits) * blocksX + (x >> t.bits)] as number) >>> 8) & 0x0f;
          const left = argb[i - 1] as number;
          const top = argb[i - width] as number;
          if (mode === 0) prediction = 0xff000000;
          else if (mode === 1) prediction = left;
          else if (mode === 2) prediction = top;
          else if (mode === 7) prediction = channelAverage(left, top);
          else throw new Error(`VP8L: predictor mode ${mode} not supported by this test decoder`);
        }
        argb[i] = channelAdd(argb[i] as number, prediction);
      }
    }
  }
  const data = new Uint8Array(width * height * 4);
  argb.forEach((p, i) => {
    data[i * 4] = (p >>> 16) & 0xff;
    data[i * 4 + 1] = (p >>> 8) & 0xff;
    data[i * 4 + 2] = p & 0xff;
    data[i * 4 + 3] = p >>> 24;
  });
  return { width, height, data };
}
