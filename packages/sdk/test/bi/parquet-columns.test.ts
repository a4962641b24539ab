import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import type { BiColumn } from "../../src/bi/csdl.ts";
import { ParquetEncoder } from "../../src/bi/parquet.ts";
import { encodeFile } from "./fake-feed.ts";

const columns: BiColumn[] = [
  { name: "Id", kind: "string", nullable: false },
  { name: "Note", kind: "string", nullable: true },
  { name: "Count", kind: "int", nullable: true },
  { name: "Big", kind: "int64", nullable: true },
  { name: "Ratio", kind: "double", nullable: true },
  { name: "Price", kind: "decimal", nullable: true, precision: 10, scale: 2 },
  { name: "Paid", kind: "boolean", nullable: true },
  { name: "Day", kind: "date", nullable: true },
  { name: "At", kind: "datetime", nullable: true },
  { name: "Extra", kind: "other", nullable: true },
];

const encode = (rows: Record<string, unknown>[], rowGroupSize: number) =>
  encodeFile(new ParquetEncoder("Entrances", undefined, { schema: columns, rowGroupSize }), rows, 3);

describe("row-group values in typed buffers", () => {
  const rows = Array.from({ length: 11 }, (_, i) => ({
    Id: `id_${i}`,
    Note: i % 4 === 1 ? null : i % 4 === 2 ? "" : `Grüezi ✓ 🎫 ${"x".repeat(i * 50)}`,
    Count: i % 5 === 0 ? null : i - 3,
    Big: i % 3 === 0 ? null : i === 4 ? "9007199254740993" : 2 ** 40 + i,
    Ratio: i / 3,
    Price: i === 7 ? "12.50" : i + 0.25,
    Paid: i % 6 === 0 ? null : i % 2 === 0,
    Day: i === 2 ? null : `2026-03-${String(i + 1).padStart(2, "0")}`,
    At: `2026-03-01T10:00:${String(i).padStart(2, "0")}.250Z`,
    Extra: i === 3 ? null : { gate: i, tags: ["a"] },
  }));

  it("round-trips every kind, nulls, empty and non-ASCII text across row groups (the buffers are reused)", async () => {
    const file = encode(rows, 4);
    expect(parquetMetadata(file).row_groups.map((g) => Number(g.num_rows))).toEqual([4, 4, 3]);
    const back = await parquetReadObjects({ file });
    expect(back).toHaveLength(11);
    back.forEach((r, i) => {
      const row = rows[i] as (typeof rows)[number];
      expect(r.Id).toBe(row.Id);
      expect(r.Note).toBe(row.Note);
      expect(r.Count).toBe(row.Count);
      expect(r.Big).toBe(row.Big === null ? null : BigInt(row.Big));
      expect(r.Ratio).toBe(row.Ratio);
      expect(r.Price).toBe(Number(row.Price));
      expect(r.Paid).toBe(row.Paid);
      expect(r.Day === null ? null : (r.Day as Date).toISOString().slice(0, 10)).toBe(row.Day);
      expect((r.At as Date).toISOString()).toBe(row.At);
      expect(r.Extra).toBe(row.Extra === null ? null : JSON.stringify(row.Extra));
    });
  });

  it("writes each chunk's null count, min and max, so readers can skip row groups", () => {
    const [first] = parquetMetadata(encode(rows, 4)).row_groups;
    const stats = Object.fromEntries(
      (first?.columns ?? []).map((c) => [c.meta_data?.path_in_schema[0], c.meta_data?.statistics]),
    );
    // Rows 0–3: Id id_0…id_3, Count null, -2, -1, 0, At …:00 to …:03, Note "" once, one null.
    expect(stats.Id).toMatchObject({ null_count: 0n, min_value: "id_0", max_value: "id_3" });
    expect(stats.Count).toMatchObject({ null_count: 1n, min_value: -2, max_value: 0 });
    expect(stats.Note).toMatchObject({ null_count: 1n, min_value: "" });
    expect(stats.At).toMatchObject({
      null_count: 0n,
      min_value: new Date("2026-03-01T10:00:00.250Z"),
      max_value: new Date("2026-03-01T10:00:03.250Z"),
    });
    expect(stats.Big).toMatchObject({ null_count: 2n, min_value: 2n ** 40n + 1n, max_value: 2n ** 40n + 2n });
    expect(stats.Paid).toMatchObject({ null_count: 1n, min_value: false, max_value: true });
  });

  it("refuses a value of the wrong type, naming the column", () => {
    const bad: [string, unknown, RegExp][] = [
      ["Count", "7", /Count: "7" is no valid number/],
      ["Big", 1.5, /Big: 1.5 is no valid Edm.Int64/],
      ["Paid", "yes", /Paid: "yes" is no valid Edm.Boolean/],
      ["Day", "2026-13-45", /Day: "2026-13-45" is no valid Edm.Date/],
      ["Price", "", /Price: "" is no valid number/],
    ];
    for (const [name, value, message] of bad) {
      const encoder = new ParquetEncoder("Entrances", undefined, { schema: columns });
      expect(() => encoder.push([{ ...rows[1], [name]: value }]), name).toThrow(message);
    }
  });
});
