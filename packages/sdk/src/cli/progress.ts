import type { BiExportProgress } from "../bi/index.ts";

export const formatBytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;

/** A progress bar on a TTY (redrawn at most 10 times a second), plain lines (at most one a second) otherwise. */
export function progressReporter(
  stream: { isTTY?: boolean; write(chunk: string): unknown },
  quiet: boolean,
  now: () => number = Date.now,
) {
  const started = now();
  let lastLine = Number.NEGATIVE_INFINITY;
  const describe = (p: BiExportProgress) => {
    const rows = p.total === undefined ? `${p.rows} rows` : `${p.rows}/${p.total} rows`;
    return `${rows}, ${p.pages} pages, ${formatBytes(p.bytes)}`;
  };
  return {
    update(p: BiExportProgress) {
      if (quiet) return;
      const interval = stream.isTTY ? 100 : 1000;
      if (now() - lastLine < interval && !(p.total !== undefined && p.rows >= p.total)) return;
      lastLine = now();
      if (stream.isTTY) {
        const width = 30;
        const ratio = p.total ? Math.min(1, p.rows / p.total) : undefined;
        const bar =
          ratio === undefined
            ? ""
            : `[${"#".repeat(Math.round(ratio * width)).padEnd(width, ".")}] ${Math.floor(ratio * 100)}% `;
        stream.write(`\r\x1b[2K${bar}${describe(p)}`);
      } else {
        stream.write(`progress: ${describe(p)}\n`);
      }
    },
    done(p: BiExportProgress, out: string) {
      if (quiet) return;
      const seconds = ((now() - started) / 1000).toFixed(1);
      stream.write(`${stream.isTTY ? "\r\x1b[2K" : ""}done: ${describe(p)} in ${seconds}s → ${out}\n`);
    },
  };
}
