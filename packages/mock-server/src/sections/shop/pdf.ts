/**
 * A minimal, valid one-page PDF (PDF 1.4, Helvetica, WinAnsi) so ticket and receipt links open in any
 * viewer. Platform-free: builds the bytes by hand, with a correct cross-reference table.
 */
function escapeText(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\(/g, "\\(").replace(/\)/g, "\\)");
}

function latin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes[i] = code === 0x2013 ? 0x96 : code < 256 ? code : 0x3f;
  }
  return bytes;
}

export function simplePdf(title: string, lines: string[]): Uint8Array {
  const content = [
    "BT",
    "/F1 20 Tf",
    "56 780 Td",
    `(${escapeText(title)}) Tj`,
    "/F1 12 Tf",
    ...lines.flatMap((line) => ["0 -22 Td", `(${escapeText(line)}) Tj`]),
    "ET",
  ].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Length ${latin1(content).length} >>\nstream\n${content}\nendstream`,
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(latin1(out).length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = latin1(out).length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return latin1(out);
}
