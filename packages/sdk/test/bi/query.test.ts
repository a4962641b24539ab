import { describe, expect, expectTypeOf, it } from "vitest";
import { type BiRow, formatLiteral, ODataFilter, odata, type RowOf } from "../../src/bi/index.ts";

describe("odata() query builder", () => {
  it("builds the documented example with escaped literals and a stable option order", () => {
    const q = odata("Tickets")
      .filter((f) => f.and(f.eq("status", "valid"), f.gt("issuedAt", new Date("2025-01-01T00:00:00Z"))))
      .select("id", "eventId")
      .orderBy("issuedAt", "desc")
      .top(100)
      .count();
    expect(q.params()).toEqual({
      $filter: "status eq 'valid' and issuedAt gt 2025-01-01T00:00:00.000Z",
      $select: "id,eventId",
      $orderby: "issuedAt desc",
      $top: "100",
      $count: "true",
    });
    expect(q.toString()).toBe(
      "$filter=status%20eq%20'valid'%20and%20issuedAt%20gt%202025-01-01T00%3A00%3A00.000Z" +
        "&$select=id%2CeventId&$orderby=issuedAt%20desc&$top=100&$count=true",
    );
    const url = q.url("https://api.example/bi/v1/odata/");
    expect(url.origin + url.pathname).toBe("https://api.example/bi/v1/odata/Tickets");
    expect(Object.fromEntries(url.searchParams)).toEqual(q.params());
  });

  it("doubles single quotes and encodes everything that could break out of the literal or the query", () => {
    const q = odata("Tickets").filter((f) => f.eq("holderName", "O'Brien & Söhne+1 ') or true or ('"));
    expect(q.params().$filter).toBe("holderName eq 'O''Brien & Söhne+1 '') or true or ('''");
    const decoded = new URLSearchParams(q.toString()).get("$filter");
    expect(decoded).toBe(q.params().$filter);
    expect(q.toString()).not.toMatch(/[ &+](?!\$)/);
  });

  it("writes each kind's literal form", () => {
    expect(formatLiteral("string", "")).toBe("''");
    expect(formatLiteral("string", "''")).toBe("''''''");
    expect(formatLiteral("guid", "01234567-89ab-cdef-0123-456789ABCDEF")).toBe(
      "01234567-89ab-cdef-0123-456789ABCDEF",
    );
    expect(formatLiteral("int", -42)).toBe("-42");
    expect(formatLiteral("decimal", 12.5)).toBe("12.5");
    expect(formatLiteral("boolean", false)).toBe("false");
    expect(formatLiteral("date", new Date("2025-03-09T23:30:00Z"))).toBe("2025-03-09");
    expect(formatLiteral("date", "2025-03-09")).toBe("2025-03-09");
    expect(formatLiteral("datetime", "2025-03-09T10:00:00+01:00")).toBe("2025-03-09T10:00:00+01:00");
    expect(formatLiteral("datetime", "2025-03-09t10:00:00z")).toBe("2025-03-09T10:00:00Z");
    expect(formatLiteral("string", null)).toBe("null");
  });

  it("refuses values that do not fit the property's kind instead of emitting them", () => {
    const bad: [Parameters<typeof formatLiteral>[0], unknown][] = [
      ["string", 5],
      ["guid", "not-a-guid"],
      ["guid", "01234567-89ab-cdef-0123-456789abcdef or true"],
      ["int", 1.5],
      ["int", Number.MAX_SAFE_INTEGER + 1],
      ["int", "1"],
      ["decimal", Number.NaN],
      ["decimal", Number.POSITIVE_INFINITY],
      ["boolean", "true"],
      ["date", "2025-13-01"],
      ["date", "2025-01-01) or (1 eq 1"],
      ["date", new Date("nope")],
      ["datetime", "2025-01-01"],
      ["datetime", "2025-01-01T00:00:00Z or true"],
      ["datetime", "2025-02-30T99:00:00Z"],
      ["datetime", new Date(Number.NaN)],
    ];
    for (const [kind, value] of bad)
      expect(() => formatLiteral(kind, value), `${kind} ${String(value)}`).toThrow(TypeError);
  });

  it("supports in-lists, null, not, or-precedence and the string and date functions", () => {
    const q = odata("Payments").filter((f) =>
      f.and(
        f.or(f.eq("status", "succeeded"), f.eq("completedAt", null)),
        f.in("currency", ["CHF", "EUR"]),
        f.not(f.contains(f.tolower("providerId"), "tw'int")),
        f.startswith("cartId", "crt_"),
        f.endswith(f.toupper("status"), "ED"),
        f.eq(f.year("createdAt"), 2025),
        f.ge(f.month("createdAt"), 3),
        f.le(f.day("createdAt"), 15),
      ),
    );
    expect(q.params().$filter).toBe(
      "(status eq 'succeeded' or completedAt eq null) and currency in ('CHF','EUR') and " +
        "not (contains(tolower(providerId),'tw''int')) and startswith(cartId,'crt_') and " +
        "endswith(toupper(status),'ED') and year(createdAt) eq 2025 and month(createdAt) ge 3 and day(createdAt) le 15",
    );
    const or = odata("Orders").filter((f) =>
      f.or(f.and(f.eq("status", "paid"), f.gt("totalAmount", 0)), f.lt("itemCount", 2)),
    );
    expect(or.params().$filter).toBe("status eq 'paid' and totalAmount gt 0 or itemCount lt 2");
  });

  it("joins several filter() calls with and, parenthesising raw text", () => {
    const q = odata("Entrances")
      .filter("result eq 'admitted' or result eq 'rejected'")
      .filter((f) => f.eq("direction", "in"))
      .filter(new ODataFilter("gateId eq 'g1'"));
    expect(q.params().$filter).toBe(
      "(result eq 'admitted' or result eq 'rejected') and direction eq 'in' and gateId eq 'g1'",
    );
    expect(odata("Entrances").filter("a eq 1").params().$filter).toBe("a eq 1");
  });

  it("is immutable: each call returns a new query", () => {
    const base = odata("Orders").top(10);
    const withSkip = base.skip(20).orderBy("createdAt").orderBy("id", "desc");
    expect(base.toString()).toBe("$top=10");
    expect(withSkip.params()).toEqual({ $orderby: "createdAt,id desc", $top: "10", $skip: "20" });
    expect(odata("Orders").toString()).toBe("");
    expect(odata("Orders").count().count(false).toString()).toBe("");
  });

  it("validates names and arguments at run time too (for JavaScript callers and the CLI)", () => {
    const loose = odata as (s: string) => ReturnType<typeof odata<"Tickets">>;
    expect(() => loose("Customers")).toThrow(/Unknown BI dataset/);
    expect(() => loose("Tickets").select("id", "nope" as "id")).toThrow(/Unknown property "nope" of Tickets/);
    expect(() => loose("Tickets").orderBy("constructor" as "id")).toThrow(TypeError);
    expect(() => odata("Tickets").filter((f) => f.eq("toString" as "id", "x"))).toThrow(TypeError);
    expect(() => odata("Tickets").filter((f) => f.contains("priceAmount" as "id", "1"))).toThrow(/is int/);
    expect(() => odata("Tickets").filter((f) => f.in("status", []))).toThrow(TypeError);
    expect(() => odata("Tickets").filter((f) => f.and())).toThrow(TypeError);
    expect(() => odata("Tickets").filter(() => "status eq 'x'" as unknown as ODataFilter)).toThrow(TypeError);
    expect(() => odata("Tickets").top(-1)).toThrow(TypeError);
    expect(() => odata("Tickets").skip(1.5)).toThrow(TypeError);
    expect(() => odata("Tickets").orderBy("id", "up" as "asc")).toThrow(TypeError);
    expect(() => odata("Tickets").select()).toThrow(TypeError);
  });

  it("types property names, values and selected rows per dataset", () => {
    const q = odata("Tickets").select("id", "issuedAt");
    expectTypeOf<RowOf<typeof q>>().toEqualTypeOf<{ id: string; issuedAt: string }>();
    expectTypeOf<BiRow<"Payments">["completedAt"]>().toEqualTypeOf<string | null>();
    expectTypeOf<BiRow<"Orders">["totalAmount"]>().toEqualTypeOf<number>();
    // Type-level only: never called, so the deliberately wrong calls below do not throw.
    const typeChecks = () => {
      // @ts-expect-error unknown property
      odata("Tickets").select("nope");
      // @ts-expect-error Orders has no issuedAt
      odata("Orders").orderBy("issuedAt");
      odata("Tickets").filter((f) =>
        f.and(
          f.gt("issuedAt", new Date()),
          f.gt("issuedAt", "2025-01-01T00:00:00Z"),
          // @ts-expect-error a number is not a ticket status
          f.eq("status", 3),
          // @ts-expect-error status is not nullable
          f.eq("status", null),
          // @ts-expect-error contains works on strings only
          f.contains("priceAmount", "1"),
          // @ts-expect-error year() needs a date property
          f.year("status"),
          // @ts-expect-error year() compares with numbers
          f.eq(f.year("issuedAt"), "2025"),
        ),
      );
    };
    expectTypeOf(typeChecks).toBeFunction();
  });
});
