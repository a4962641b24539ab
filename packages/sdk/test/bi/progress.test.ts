import { describe, expect, it } from "vitest";
import { formatBytes, progressReporter } from "../../src/cli/progress.ts";

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (chunk: string) => writes.push(chunk) };
}

describe("CLI progress output", () => {
  it("draws a redrawn bar with percentage on a TTY, throttled, always showing completion", () => {
    const stream = fakeStream(true);
    let t = 0;
    const p = progressReporter(stream, false, () => t);
    p.update({ rows: 25, pages: 1, bytes: 2048, total: 100 });
    t = 50;
    p.update({ rows: 50, pages: 2, bytes: 4096, total: 100 }); // within 100 ms: skipped
    t = 120;
    p.update({ rows: 75, pages: 3, bytes: 6144, total: 100 });
    t = 130;
    p.update({ rows: 100, pages: 4, bytes: 3 * 1048576, total: 100 }); // complete: drawn even when throttled
    t = 2500;
    p.done({ rows: 100, pages: 4, bytes: 3 * 1048576, total: 100 }, "out.csv");
    expect(stream.writes).toEqual([
      `\r\x1b[2K[${"#".repeat(8)}${".".repeat(22)}] 25% 25/100 rows, 1 pages, 2.0 KB`,
      `\r\x1b[2K[${"#".repeat(23)}${".".repeat(7)}] 75% 75/100 rows, 3 pages, 6.0 KB`,
      `\r\x1b[2K[${"#".repeat(30)}] 100% 100/100 rows, 4 pages, 3.0 MB`,
      "\r\x1b[2Kdone: 100/100 rows, 4 pages, 3.0 MB in 2.5s → out.csv\n",
    ]);
  });

  it("shows counts without a bar when the total is unknown", () => {
    const stream = fakeStream(true);
    progressReporter(stream, false, () => 0).update({ rows: 7, pages: 1, bytes: 10, total: undefined });
    expect(stream.writes).toEqual(["\r\x1b[2K7 rows, 1 pages, 10 B"]);
  });

  it("writes plain lines at most once a second when not a TTY", () => {
    const stream = fakeStream(false);
    let t = 0;
    const p = progressReporter(stream, false, () => t);
    p.update({ rows: 10, pages: 1, bytes: 100, total: undefined });
    t = 500;
    p.update({ rows: 20, pages: 2, bytes: 200, total: undefined });
    t = 1001;
    p.update({ rows: 30, pages: 3, bytes: 300, total: undefined });
    p.done({ rows: 30, pages: 3, bytes: 300, total: undefined }, "stdout");
    expect(stream.writes).toEqual([
      "progress: 10 rows, 1 pages, 100 B\n",
      "progress: 30 rows, 3 pages, 300 B\n",
      "done: 30 rows, 3 pages, 300 B in 1.0s → stdout\n",
    ]);
    expect(stream.writes.join("")).not.toContain("\x1b");
  });

  it("stays silent with --quiet", () => {
    const stream = fakeStream(true);
    const p = progressReporter(stream, true);
    p.update({ rows: 1, pages: 1, bytes: 1, total: 1 });
    p.done({ rows: 1, pages: 1, bytes: 1, total: 1 }, "x");
    expect(stream.writes).toEqual([]);
  });

  it("formats byte counts", () => {
    expect([formatBytes(0), formatBytes(1023), formatBytes(1536), formatBytes(5 * 1048576)]).toEqual([
      "0 B",
      "1023 B",
      "1.5 KB",
      "5.0 MB",
    ]);
  });
});
