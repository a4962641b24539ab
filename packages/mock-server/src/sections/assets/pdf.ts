import { zlibSync } from "fflate";

/**
 * A minimal PDF 1.7 writer: A4/A6 pages with Helvetica text (WinAnsi, so German, French and Italian accents print),
 * filled rectangles (for colour bands and QR modules) and lines; Flate-compressed content streams and a correct
 * cross-reference table. Enough for tickets and receipts, in pure TypeScript.
 *
 * The mock's one PDF writer. Kept instead of a library because it ships in the browser build, where a PDF library
 * would weigh a hundred times more for two fixed document layouts.
 */

/** WinAnsi code points beyond Latin-1 that our texts use. */
const WIN_ANSI_EXTRA: Record<string, number> = {
  "€": 0x80,
  "‚": 0x82,
  "„": 0x84,
  "…": 0x85,
  "‘": 0x91,
  "’": 0x92,
  "“": 0x93,
  "”": 0x94,
  "•": 0x95,
  "–": 0x96,
  "—": 0x97,
  "\u202f": 0x20,
  "\u2009": 0x20,
};

/** A PDF literal string in WinAnsi; characters it cannot show become `?`. */
export function pdfString(text: string): string {
  let out = "(";
  for (const ch of text) {
    let code = WIN_ANSI_EXTRA[ch] ?? ch.codePointAt(0) ?? 63;
    if (code > 0xff || (code >= 0x80 && code < 0xa0 && WIN_ANSI_EXTRA[ch] === undefined)) code = 63;
    if (code === 0x28 || code === 0x29 || code === 0x5c) out += `\\${String.fromCharCode(code)}`;
    else if (code < 0x20) out += " ";
    else out += String.fromCharCode(code);
  }
  return `${out})`;
}

function color(hex: string): string {
  const n = Number.parseInt(hex.replace("#", ""), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => (c / 255).toFixed(3)).join(" ");
}

// Helvetica advance widths (per 1000 em) for ASCII 32..126, to measure and right-align text.
const HELVETICA_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556,
  556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278,
  500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469,
  556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
  278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** Approximate width of a text in points (accented letters measured like their base letter). */
export function textWidth(text: string, size: number, bold = false): number {
  let w = 0;
  for (const ch of text.normalize("NFD").replace(/[\u0300-\u036f]/g, "")) {
    const c = ch.charCodeAt(0);
    w += c >= 32 && c <= 126 ? (HELVETICA_WIDTHS[c - 32] as number) : 556;
  }
  return (w * size * (bold ? 1.05 : 1)) / 1000;
}

export class PdfPage {
  readonly ops: string[] = [];
  constructor(
    readonly width: number,
    readonly height: number,
  ) {}

  /** Text with its baseline at (x, y) from the bottom-left corner. */
  text(
    x: number,
    y: number,
    size: number,
    text: string,
    options: { bold?: boolean; color?: string; align?: "left" | "right" } = {},
  ): this {
    const font = options.bold ? "F2" : "F1";
    const left = options.align === "right" ? x - textWidth(text, size, options.bold) : x;
    this.ops.push(
      `BT ${color(options.color ?? "#1a1a1a")} rg /${font} ${size} Tf ${left.toFixed(2)} ${y.toFixed(2)} Td ${pdfString(text)} Tj ET`,
    );
    return this;
  }

  rect(x: number, y: number, w: number, h: number, fill: string): this {
    this.ops.push(`${color(fill)} rg ${x.toFixed(2)} ${y.toFixed(2)} ${w.toFixed(2)} ${h.toFixed(2)} re f`);
    return this;
  }

  line(x1: number, y1: number, x2: number, y2: number, stroke = "#cccccc", width = 0.5): this {
    this.ops.push(
      `${color(stroke)} RG ${width} w ${x1.toFixed(2)} ${y1.toFixed(2)} m ${x2.toFixed(2)} ${y2.toFixed(2)} l S`,
    );
    return this;
  }

  /** A QR matrix (true = dark module) with its top-left corner at (x, top), `size` points wide. */
  qr(x: number, top: number, size: number, modules: boolean[][]): this {
    const n = modules.length;
    const cell = size / n;
    const path: string[] = [];
    for (const [r, row] of modules.entries()) {
      for (const [c, dark] of row.entries()) {
        if (!dark) continue;
        path.push(
          `${(x + c * cell).toFixed(3)} ${(top - (r + 1) * cell).toFixed(3)} ${cell.toFixed(3)} ${cell.toFixed(3)} re`,
        );
      }
    }
    this.ops.push(`0 0 0 rg ${path.join(" ")} f`);
    return this;
  }
}

/** Serialize pages into PDF bytes. `date` is the creation instant (the mock clock's). */
export function buildPdf(pages: PdfPage[], info: { title: string; date: number }): Uint8Array {
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add("");
  const pagesObj = add("");
  const fontRegular = add(
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  );
  const fontBold = add(
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
  );
  const pageIds: number[] = [];
  for (const page of pages) {
    // Operators are ASCII and strings are WinAnsi: one byte per character.
    const compressed = zlibSync(Uint8Array.from(page.ops.join("\n"), (c) => c.charCodeAt(0) & 0xff));
    let binary = "";
    for (const b of compressed) binary += String.fromCharCode(b);
    const content = add(
      `<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n${binary}\nendstream`,
    );
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${page.width} ${page.height}] /Resources << /Font << /F1 ${fontRegular} 0 R /F2 ${fontBold} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] =
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pageIds.length} >>`;
  const d = new Date(info.date).toISOString();
  const pdfDate = `D:${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}${d.slice(11, 13)}${d.slice(14, 16)}${d.slice(17, 19)}Z`;
  const infoObj = add(
    `<< /Title ${pdfString(info.title)} /Producer (Entrada mock server) /CreationDate (${pdfDate}) >>`,
  );
  let out = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${infoObj} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const bytes = new Uint8Array(out.length);
  for (let i = 0; i < out.length; i++) bytes[i] = out.charCodeAt(i) & 0xff;
  return bytes;
}
