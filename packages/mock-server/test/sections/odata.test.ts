import { describe, expect, it } from "vitest";
import { ODataError } from "../../src/sections/bi/odata/errors.ts";
import { compileFilter, compileOrder, type Row } from "../../src/sections/bi/odata/evaluate.ts";
import {
  type PropertyTypes,
  parseFilter,
  parseOrderBy,
  parseSelect,
} from "../../src/sections/bi/odata/parser.ts";
import { parseEntitySetQuery, runQuery } from "../../src/sections/bi/odata/query.ts";

const PROPS: PropertyTypes = {
  Id: "String",
  Name: "String",
  Status: "String",
  Amount: "Decimal",
  Count: "Int32",
  Paid: "Boolean",
  Day: "Date",
  At: "DateTimeOffset",
  Note: "String",
};

const ROWS: Row[] = [
  {
    Id: "a1",
    Name: "Zürich Open Air",
    Status: "paid",
    Amount: 45.5,
    Count: 2,
    Paid: true,
    Day: "2026-07-01",
    At: "2026-06-01T10:00:00Z",
    Note: null,
  },
  {
    Id: "a2",
    Name: "O'Brien's Jazz",
    Status: "refunded",
    Amount: 12,
    Count: 1,
    Paid: false,
    Day: "2026-12-24",
    At: "2026-12-01T23:30:00Z",
    Note: "vip",
  },
  {
    Id: "a3",
    Name: "Kunstmesse",
    Status: "paid",
    Amount: 120,
    Count: 5,
    Paid: true,
    Day: "2025-03-15",
    At: "2025-03-01T08:00:00+01:00",
    Note: "",
  },
  {
    Id: "a4",
    Name: "kunst & mehr",
    Status: "cancelled",
    Amount: 0,
    Count: 0,
    Paid: false,
    Day: "2026-01-01",
    At: "2026-01-01T00:00:00Z",
    Note: null,
  },
];

function ids(filter: string): string[] {
  const f = compileFilter(parseFilter(filter, PROPS, "Things"));
  return ROWS.filter(f).map((r) => r.Id as string);
}

function error(fn: () => unknown): ODataError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ODataError) return e;
    throw e;
  }
  throw new Error("expected an ODataError");
}

describe("$filter parser and evaluator", () => {
  it("compares with every operator and honours precedence (not > and > or) and parentheses", () => {
    expect(ids("Status eq 'paid'")).toEqual(["a1", "a3"]);
    expect(ids("Status ne 'paid'")).toEqual(["a2", "a4"]);
    expect(ids("Amount gt 12")).toEqual(["a1", "a3"]);
    expect(ids("Amount ge 12")).toEqual(["a1", "a2", "a3"]);
    expect(ids("Amount lt 12")).toEqual(["a4"]);
    expect(ids("Amount le 12.0")).toEqual(["a2", "a4"]);
    expect(ids("Status eq 'paid' or Status eq 'refunded' and Amount gt 100")).toEqual(["a1", "a3"]);
    expect(ids("(Status eq 'paid' or Status eq 'refunded') and Amount lt 100")).toEqual(["a1", "a2"]);
    expect(ids("not Paid and not (Count eq 0)")).toEqual(["a2"]);
    expect(ids("Paid eq true")).toEqual(["a1", "a3"]);
    expect(ids("Paid")).toEqual(["a1", "a3"]);
  });

  it("supports in, null, string functions, case functions and date parts", () => {
    expect(ids("Status in ('refunded', 'cancelled')")).toEqual(["a2", "a4"]);
    expect(ids("Note eq null")).toEqual(["a1", "a4"]);
    expect(ids("Note ne null")).toEqual(["a2", "a3"]);
    expect(ids("contains(Name, 'Jazz')")).toEqual(["a2"]);
    expect(ids("startswith(tolower(Name), 'kunst')")).toEqual(["a3", "a4"]);
    expect(ids("endswith(Name, 'Air')")).toEqual(["a1"]);
    expect(ids("toupper(Status) eq 'PAID'")).toEqual(["a1", "a3"]);
    expect(ids("year(Day) eq 2026 and month(Day) eq 12 and day(Day) eq 24")).toEqual(["a2"]);
    expect(ids("year(At) eq 2025")).toEqual(["a3"]);
    expect(ids("length(Status) eq 4")).toEqual(["a1", "a3"]);
    // Functions of null are null, and null never satisfies an ordering comparison.
    expect(ids("contains(Note, 'v')")).toEqual(["a2"]);
    expect(ids("Note gt 'a'")).toEqual(["a2"]);
  });

  it("parses string literals with doubled quotes, negative and decimal numbers, dates and date-times", () => {
    expect(ids("Name eq 'O''Brien''s Jazz'")).toEqual(["a2"]);
    expect(ids("Amount gt -1 and Amount lt 1e2")).toEqual(["a1", "a2", "a4"]);
    expect(ids("Day ge 2026-01-01 and Day lt 2026-12-01")).toEqual(["a1", "a4"]);
    expect(ids("At ge 2026-06-01T10:00:00Z")).toEqual(["a1", "a2"]);
    // The offset is honoured: 08:00+01:00 is 07:00Z.
    expect(ids("At eq 2025-03-01T07:00:00Z")).toEqual(["a3"]);
    // A Date compared with a DateTimeOffset is midnight UTC.
    expect(ids("At ge 2026-12-01")).toEqual(["a2"]);
  });

  it("rejects syntax errors, unknown names and type mismatches with 400 and a target", () => {
    const unterminated = error(() => parseFilter("Name eq 'abc", PROPS, "Things"));
    expect([unterminated.status, unterminated.code, unterminated.target]).toEqual([
      400,
      "InvalidFilter",
      "$filter",
    ]);
    expect(error(() => parseFilter("Status eq", PROPS)).render("en-GB").error.message).toBe(
      "Syntax error in $filter at position 9: expected a value, property or function, found the end of the input.",
    );
    expect(error(() => parseFilter("(Status eq 'paid'", PROPS)).code).toBe("InvalidFilter");
    expect(error(() => parseFilter("Status eq 'paid' Amount", PROPS)).code).toBe("InvalidFilter");
    expect(error(() => parseFilter("Amount eq 'x'", PROPS)).message).toBe(
      "Cannot compare Decimal with String using 'eq' in $filter.",
    );
    expect(error(() => parseFilter("Amount", PROPS)).message).toBe(
      "$filter needs a Boolean expression, not Decimal.",
    );
    expect(error(() => parseFilter("frobnicate(Name)", PROPS)).code).toBe("InvalidFilter");
    expect(error(() => parseFilter("contains(Name)", PROPS)).message).toBe(
      "The function 'contains' takes 2 argument(s), got 1.",
    );
    expect(error(() => parseFilter("year(Name) eq 1", PROPS)).code).toBe("InvalidFilter");
    expect(error(() => parseFilter("At eq datetime'2026-01-01T00:00:00'", PROPS)).code).toBe("InvalidFilter");
    expect(error(() => parseFilter("Day eq 2026-02-30", PROPS)).code).toBe("InvalidFilter");
    expect(error(() => parseFilter("Name eq #", PROPS)).code).toBe("InvalidFilter");
  });

  it("suggests the closest property for an unknown one, localized", () => {
    const e = error(() => parseFilter("Amont gt 1", PROPS, "Things"));
    expect(e.code).toBe("UnknownProperty");
    expect(e.render("de-CH", "log_1")).toEqual({
      error: {
        code: "UnknownProperty",
        message: "Die Eigenschaft «Amont» existiert in «Things» nicht.",
        target: "$filter",
        details: [{ code: "UnknownProperty", message: "Meinten Sie «Amount»?", target: "Amont" }],
        innererror: { logId: "log_1" },
      },
    });
    // Property names are case-sensitive; the suggestion fixes the case.
    expect(error(() => parseFilter("status eq 'paid'", PROPS)).render("fr-CH").error.details).toEqual([
      { code: "UnknownProperty", message: "Vouliez-vous dire « Status » ?", target: "status" },
    ]);
    expect(error(() => parseFilter("Xyzzy eq 1", PROPS)).render("en-GB").error.details).toEqual([]);
  });

  it("answers 501 for valid OData it does not implement", () => {
    for (const f of [
      "Amount add 1 eq 2",
      "substring(Name, 1) eq 'x'",
      "round(Amount) eq 1",
      "Tags/any(t: t eq 'x')",
    ]) {
      const e = error(() => parseFilter(f, PROPS));
      expect([f, e.status, e.code]).toEqual([f, 501, "NotImplemented"]);
    }
  });
});

describe("$orderby and $select", () => {
  it("orders by expressions with directions and breaks ties by key", () => {
    const order = (text: string) =>
      [...ROWS].sort(compileOrder(parseOrderBy(text, PROPS), "Id")).map((r) => r.Id);
    expect(order("Amount desc")).toEqual(["a3", "a1", "a2", "a4"]);
    expect(order("Paid, Amount")).toEqual(["a4", "a2", "a1", "a3"]);
    // "kunst & mehr" sorts before "kunstmesse" (space < "m").
    expect(order("tolower(Name) asc")).toEqual(["a4", "a3", "a2", "a1"]);
    // Nulls first ascending; the key breaks the tie between a1 and a4.
    expect(order("Note")).toEqual(["a1", "a4", "a3", "a2"]);
    expect(order("Note desc")).toEqual(["a2", "a3", "a1", "a4"]);
    expect(error(() => parseOrderBy("Amount sideways", PROPS)).status).toBe(400);
  });

  it("selects known properties and rejects unknown ones", () => {
    expect(parseSelect("Name, Amount,Name", PROPS)).toEqual(["Name", "Amount"]);
    expect(parseSelect("*", PROPS)).toBeNull();
    expect(error(() => parseSelect("Name,Nope", PROPS)).code).toBe("UnknownProperty");
    expect(error(() => parseSelect("Name,", PROPS)).status).toBe(400);
  });
});

describe("system query options and server-driven paging", () => {
  const many: Row[] = Array.from({ length: 2500 }, (_, i) => ({
    Id: `r${String(i).padStart(5, "0")}`,
    Name: `n${i % 7}`,
    Status: i % 3 === 0 ? "paid" : "open",
    Amount: i % 100,
    Count: i,
    Paid: i % 2 === 0,
    Day: "2026-01-01",
    At: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    Note: null,
  }));
  const run = (q: Record<string, string>, size: number, rows = many) =>
    runQuery(rows, parseEntitySetQuery(q, PROPS, "Id", "Things"), "Id", size);

  it("pages through every matching row exactly once, in order, and honours $top, $skip and $count", () => {
    const q = { $filter: "Status eq 'paid'", $orderby: "Amount desc", $count: "true" };
    const seen: string[] = [];
    let page = run(q, 300);
    expect(page.count).toBe(834);
    for (;;) {
      seen.push(...page.rows.map((r) => r.Id as string));
      if (!page.nextSkipToken) break;
      page = run({ ...q, $skiptoken: page.nextSkipToken }, 300);
    }
    const expected = many
      .filter((r) => r.Status === "paid")
      .sort(compileOrder(parseOrderBy("Amount desc", PROPS), "Id"))
      .map((r) => r.Id);
    expect(seen).toEqual(expected);

    const top = run({ $top: "450", $skip: "100" }, 200);
    expect(top.rows[0]?.Id).toBe("r00100");
    const second = run({ $top: "450", $skip: "100", $skiptoken: top.nextSkipToken as string }, 200);
    const third = run({ $top: "450", $skip: "100", $skiptoken: second.nextSkipToken as string }, 200);
    expect([top.rows.length, second.rows.length, third.rows.length]).toEqual([200, 200, 50]);
    expect(third.nextSkipToken).toBeNull();
    expect(third.rows.at(-1)?.Id).toBe("r00549");
    expect(run({ $top: "0" }, 10).rows).toEqual([]);
  });

  it("keyset paging neither repeats nor skips rows when rows are inserted before the cursor", () => {
    const rows = many.slice(0, 100);
    const first = run({}, 40, rows);
    const inserted = [{ ...(rows[0] as Row), Id: "r00000a" }, ...rows];
    const next = run({ $skiptoken: first.nextSkipToken as string }, 40, inserted);
    expect(next.rows[0]?.Id).toBe("r00040");
  });

  it("projects $select and rejects tampered or foreign skiptokens", () => {
    expect(run({ $select: "Id,Amount", $top: "1" }, 10).rows).toEqual([{ Id: "r00000", Amount: 0 }]);
    const page = run({ $filter: "Paid" }, 10);
    const foreign = error(() => run({ $filter: "not Paid", $skiptoken: page.nextSkipToken as string }, 10));
    expect([foreign.status, foreign.code]).toEqual([400, "InvalidSkipToken"]);
    expect(error(() => run({ $skiptoken: "%%%" }, 10)).code).toBe("InvalidSkipToken");
    expect(error(() => run({ $skiptoken: "eyJ4IjoxfQ" }, 10)).code).toBe("InvalidSkipToken");
  });

  it("validates options: 400 for bad values and unknown $options, 501 for unsupported ones", () => {
    expect(error(() => run({ $top: "-1" }, 10)).status).toBe(400);
    expect(error(() => run({ $skip: "x" }, 10)).status).toBe(400);
    expect(error(() => run({ $count: "yes" }, 10)).status).toBe(400);
    expect(error(() => run({ $frobnicate: "1" }, 10)).status).toBe(400);
    for (const option of ["$expand", "$search", "$apply", "$compute"]) {
      const e = error(() => run({ [option]: "x" }, 10));
      expect([e.status, e.target]).toEqual([501, option]);
    }
    expect(error(() => run({ $format: "xml" }, 10)).status).toBe(501);
    expect(run({ $format: "json", $top: "1" }, 10).rows).toHaveLength(1);
    expect(run({ custom: "ignored", $top: "1" }, 10).rows).toHaveLength(1);
  });
});
