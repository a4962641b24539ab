import type { Rgba } from "./png.ts";

/**
 * A small baseline JPEG encoder (JFIF, 4:4:4, standard Annex K tables), pure TypeScript so it runs in every
 * runtime the mock runs in (jpeg-js needs Node's Buffer once bundled for browsers). Alpha is composited on white.
 */

const STD_LUMA_Q = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22,
  29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103,
  121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const STD_CHROMA_Q = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];
const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7,
  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46,
  53, 60, 61, 54, 47, 55, 62, 63,
];

// Annex K.3 Huffman tables: code counts per length (1..16) and symbol values.
const DC_LUMA_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_LUMA_VALS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const DC_CHROMA_BITS = [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
const DC_CHROMA_VALS = DC_LUMA_VALS;
const AC_LUMA_BITS = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d];
const AC_LUMA_VALS = [
  0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71,
  0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72,
  0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37,
  0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
  0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83,
  0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3,
  0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3,
  0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
  0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
];
const AC_CHROMA_BITS = [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77];
const AC_CHROMA_VALS = [
  0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22,
  0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1,
  0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x35, 0x36,
  0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
  0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a,
  0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a,
  0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba,
  0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
  0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
];

type Code = [code: number, length: number];

function buildCodes(bits: number[], vals: number[]): Code[] {
  const codes: Code[] = [];
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < (bits[len - 1] as number); i++) codes[vals[k++] as number] = [code++, len];
    code <<= 1;
  }
  return codes;
}

const DC_LUMA = buildCodes(DC_LUMA_BITS, DC_LUMA_VALS);
const DC_CHROMA = buildCodes(DC_CHROMA_BITS, DC_CHROMA_VALS);
const AC_LUMA = buildCodes(AC_LUMA_BITS, AC_LUMA_VALS);
const AC_CHROMA = buildCodes(AC_CHROMA_BITS, AC_CHROMA_VALS);

const COS = (() => {
  const t = new Float64Array(64);
  for (let x = 0; x < 8; x++)
    for (let u = 0; u < 8; u++) t[x * 8 + u] = Math.cos(((2 * x + 1) * u * Math.PI) / 16);
  return t;
})();

function scaledTable(base: number[], quality: number): number[] {
  const q = Math.min(100, Math.max(1, quality));
  const scale = q < 50 ? 5000 / q : 200 - q * 2;
  return base.map((v) => Math.min(255, Math.max(1, Math.floor((v * scale + 50) / 100))));
}

class BitWriter {
  bytes: number[] = [];
  private acc = 0;
  private n = 0;
  write(code: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((code >> i) & 1);
      this.n++;
      if (this.n === 8) {
        this.bytes.push(this.acc);
        if (this.acc === 0xff) this.bytes.push(0); // byte stuffing
        this.acc = 0;
        this.n = 0;
      }
    }
  }
  flush(): void {
    if (this.n > 0) this.write((1 << (8 - this.n)) - 1, 8 - this.n); // pad with 1s
  }
}

/** Magnitude category and the bits of a coefficient. */
function category(v: number): [size: number, bits: number] {
  const a = Math.abs(v);
  let size = 0;
  while (a >> size) size++;
  return [size, v < 0 ? v + (1 << size) - 1 : v];
}

function encodeBlock(
  w: BitWriter,
  block: Float64Array,
  q: number[],
  prevDc: number,
  dc: Code[],
  ac: Code[],
): number {
  // Separable 2-D DCT-II: rows, then columns.
  const tmp = new Float64Array(64);
  for (let x = 0; x < 8; x++) {
    for (let v = 0; v < 8; v++) {
      let sum = 0;
      for (let y = 0; y < 8; y++) sum += (block[x * 8 + y] as number) * (COS[y * 8 + v] as number);
      tmp[x * 8 + v] = sum;
    }
  }
  const out = new Int32Array(64);
  for (let u = 0; u < 8; u++) {
    const cu = u === 0 ? Math.SQRT1_2 : 1;
    for (let v = 0; v < 8; v++) {
      let sum = 0;
      for (let x = 0; x < 8; x++) sum += (tmp[x * 8 + v] as number) * (COS[x * 8 + u] as number);
      const cv = v === 0 ? Math.SQRT1_2 : 1;
      out[u * 8 + v] = Math.round((0.25 * cu * cv * sum) / (q[u * 8 + v] as number));
    }
  }
  const diff = (out[0] as number) - prevDc;
  const [dcSize, dcBits] = category(diff);
  const dcCode = dc[dcSize] as Code;
  w.write(dcCode[0], dcCode[1]);
  if (dcSize) w.write(dcBits, dcSize);
  let run = 0;
  for (let k = 1; k < 64; k++) {
    const coef = out[ZIGZAG[k] as number] as number;
    if (coef === 0) {
      run++;
      continue;
    }
    while (run > 15) {
      const zrl = ac[0xf0] as Code;
      w.write(zrl[0], zrl[1]);
      run -= 16;
    }
    const [size, bits] = category(coef);
    const code = ac[(run << 4) | size] as Code;
    w.write(code[0], code[1]);
    w.write(bits, size);
    run = 0;
  }
  if (run > 0) {
    const eob = ac[0] as Code;
    w.write(eob[0], eob[1]);
  }
  return out[0] as number;
}

function segment(marker: number, payload: number[]): number[] {
  const len = payload.length + 2;
  return [0xff, marker, len >> 8, len & 0xff, ...payload];
}

function dht(cls: number, id: number, bits: number[], vals: number[]): number[] {
  return [(cls << 4) | id, ...bits, ...vals];
}

/**
 * Encode RGBA pixels as a baseline JPEG.
 * @example encodeJpeg({ width, height, data }, 85)
 */
export function encodeJpeg(image: Rgba, quality = 85): Uint8Array {
  const { width, height, data } = image;
  const qy = scaledTable(STD_LUMA_Q, quality);
  const qc = scaledTable(STD_CHROMA_Q, quality);
  const w = new BitWriter();
  const blocks = [new Float64Array(64), new Float64Array(64), new Float64Array(64)];
  let dcY = 0;
  let dcCb = 0;
  let dcCr = 0;
  for (let by = 0; by < height; by += 8) {
    for (let bx = 0; bx < width; bx += 8) {
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) {
          const px = Math.min(width - 1, bx + x);
          const py = Math.min(height - 1, by + y);
          const i = (py * width + px) * 4;
          const a = (data[i + 3] as number) / 255;
          const r = (data[i] as number) * a + 255 * (1 - a);
          const g = (data[i + 1] as number) * a + 255 * (1 - a);
          const b = (data[i + 2] as number) * a + 255 * (1 - a);
          const k = y * 8 + x;
          (blocks[0] as Float64Array)[k] = 0.299 * r + 0.587 * g + 0.114 * b - 128;
          (blocks[1] as Float64Array)[k] = -0.168736 * r - 0.331264 * g + 0.5 * b;
          (blocks[2] as Float64Array)[k] = 0.5 * r - 0.418688 * g - 0.081312 * b;
        }
      }
      dcY = encodeBlock(w, blocks[0] as Float64Array, qy, dcY, DC_LUMA, AC_LUMA);
      dcCb = encodeBlock(w, blocks[1] as Float64Array, qc, dcCb, DC_CHROMA, AC_CHROMA);
      dcCr = encodeBlock(w, blocks[2] as Float64Array, qc, dcCr, DC_CHROMA, AC_CHROMA);
    }
  }
  w.flush();
  const bytes = [
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0, ...ZIGZAG.map((z) => qy[z] as number), 1, ...ZIGZAG.map((z) => qc[z] as number)]),
    ...segment(0xc0, [
      8,
      height >> 8,
      height & 0xff,
      width >> 8,
      width & 0xff,
      3,
      1,
      0x11,
      0,
      2,
      0x11,
      1,
      3,
      0x11,
      1,
    ]),
    ...segment(0xc4, [
      ...dht(0, 0, DC_LUMA_BITS, DC_LUMA_VALS),
      ...dht(1, 0, AC_LUMA_BITS, AC_LUMA_VALS),
      ...dht(0, 1, DC_CHROMA_BITS, DC_CHROMA_VALS),
      ...dht(1, 1, AC_CHROMA_BITS, AC_CHROMA_VALS),
    ]),
    ...segment(0xda, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]),
  ];
  const out = new Uint8Array(bytes.length + w.bytes.length + 2);
  out.set(bytes, 0);
  out.set(w.bytes, bytes.length);
  out[out.length - 2] = 0xff;
  out[out.length - 1] = 0xd9;
  return out;
}
