/** One RFC 4180 field: quoted (with `"` doubled) when it holds a comma, quote, CR or LF. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text =
    typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record with its CRLF line break (RFC 4180 §2). */
export function csvRecord(columns: readonly string[], row: Record<string, unknown>): string {
  let line = "";
  for (let i = 0; i < columns.length; i++) {
    if (i) line += ",";
    line += csvField(row[columns[i] as string]);
  }
  return `${line}\r\n`;
}
