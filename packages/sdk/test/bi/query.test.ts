import { describe, expect, expectTypeOf, it } from "vitest";
import { type BiRow, formatLiteral, ODataFilter, odata, type RowOf } from "../../src/bi/index.ts";

describe("odata() query builder", () => {
  it("builds the documented example with escaped literals and a stable option order", () => {
    const q = odata("Tickets")
      .filter((f) => f.and(f.eq("Status", "valid"), f.gt("IssuedAt", new Date("2025-01-01T00:00:00Z"))))
      .select("TicketId", "EventId")
      .orderBy("IssuedAt", "desc")
      .top(100)
      .count();
    expect(q.params()).toEqual({
      $filter: "Status eq 'valid' and IssuedAt gt 2025-01-01T00:00:00Z",
      $select: "TicketId,EventId",
      $orderby: "IssuedAt desc",
      $top: "100",
      $count: "true",
    });
    expect(q.toString()).toBe(
      "$filter=Status%20eq%20'valid'%20and%20IssuedAt%20gt%202025-01-01T00%3A00%3A00Z" +
        "&$select=TicketId%2CEventId&$orderby=IssuedAt%20desc&$top=100&$count=true",
    );
    const url = q.url("https://api.example/bi/v1/odata/");
    expect(url.origin + url.pathname).toBe("https://api.example/bi/v1/odata/Tickets");
    expect(Object.fromEntries(url.searchParams)).toEqual(q.params());
  });

  it("doubles single quotes and encodes everything that could break out of the literal or the query", () => {
    const q = odata("Tickets").filter((f) => f.eq("HolderName", "O'Brien & Söhne+1 ') or true or ('"));
    expect(q.params().$filter).toBe("HolderName eq 'O''Brien & Söhne+1 '') or true or ('''");
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
        f.or(f.eq("Status", "succeeded"), f.eq("CompletedAt", null)),
        f.in("Currency", ["CHF", "EUR"]),
        f.not(f.contains(f.tolower("PaymentProviderId"), "tw'int")),
        f.startswith("CartId", "crt_"),
        f.endswith(f.toupper("Status"), "ED"),
        f.eq(f.year("CreatedAt"), 2025),
        f.ge(f.month("CreatedAt"), 3),
        f.le(f.day("CreatedAt"), 15),
        f.ge("Amount", 12.5),
      ),
    );
    expect(q.params().$filter).toBe(
      "(Status eq 'succeeded' or CompletedAt eq null) and Currency in ('CHF','EUR') and " +
        "not (contains(tolower(PaymentProviderId),'tw''int')) and startswith(CartId,'crt_') and " +
        "endswith(toupper(Status),'ED') and year(CreatedAt) eq 2025 and month(CreatedAt) ge 3 and " +
        "day(CreatedAt) le 15 and Amount ge 12.5",
    );
    const or = odata("Orders").filter((f) =>
      f.or(f.and(f.eq("Status", "paid"), f.gt("TotalAmount", 0)), f.lt("TicketCount", 2)),
    );
    expect(or.params().$filter).toBe("Status eq 'paid' and TotalAmount gt 0 or TicketCount lt 2");
  });

  it("joins several filter() calls with and, parenthesising raw text", () => {
    const q = odata("Entrances")
      .filter("Result eq 'admitted' or Result eq 'rejected'")
      .filter((f) => f.eq("Direction", "entry"))
      .filter(new ODataFilter("GateId eq 'g1'"));
    expect(q.params().$filter).toBe(
      "(Result eq 'admitted' or Result eq 'rejected') and Direction eq 'entry' and GateId eq 'g1'",
    );
    expect(odata("Entrances").filter("a eq 1").params().$filter).toBe("a eq 1");
  });

  it("is immutable: each call returns a new query", () => {
    const base = odata("Orders").top(10);
    const withSkip = base.skip(20).orderBy("CreatedAt").orderBy("OrderId", "desc");
    expect(base.toString()).toBe("$top=10");
    expect(withSkip.params()).toEqual({ $orderby: "CreatedAt,OrderId desc", $top: "10", $skip: "20" });
    expect(odata("Orders").toString()).toBe("");
    expect(odata("Orders").count().count(false).toString()).toBe("");
  });

  it("validates names and arguments at run time too (for JavaScript callers and the CLI)", () => {
    const loose = odata as (s: string) => ReturnType<typeof odata<"Tickets">>;
    expect(() => loose("Customers")).toThrow(/Unknown BI dataset/);
    expect(() => loose("Tickets").select("TicketId", "nope" as "TicketId")).toThrow(
      /Unknown property "nope" of Tickets/,
    );
    expect(() => loose("Tickets").orderBy("constructor" as "TicketId")).toThrow(TypeError);
    expect(() => odata("Tickets").filter((f) => f.eq("toString" as "TicketId", "x"))).toThrow(TypeError);
    expect(() => odata("Tickets").filter((f) => f.contains("PriceAmount" as "TicketId", "1"))).toThrow(
      /is decimal/,
    );
    expect(() => odata("Tickets").filter((f) => f.eq(f.year("Status" as "IssuedAt"), 1))).toThrow(
      /expected date or datetime/,
    );
    expect(() => odata("Tickets").filter((f) => f.in("Status", []))).toThrow(TypeError);
    expect(() => odata("Tickets").filter((f) => f.and())).toThrow(TypeError);
    expect(() => odata("Tickets").filter(() => "Status eq 'x'" as unknown as ODataFilter)).toThrow(TypeError);
    expect(() => odata("Tickets").filter((f) => f.eq("IssuedAt", "yesterday"))).toThrow(TypeError);
    expect(() => odata("Tickets").top(-1)).toThrow(TypeError);
    expect(() => odata("Tickets").skip(1.5)).toThrow(TypeError);
    expect(() => odata("Tickets").orderBy("TicketId", "up" as "asc")).toThrow(TypeError);
    expect(() => odata("Tickets").select()).toThrow(TypeError);
  });

  it("types property names, values and selected rows per dataset", () => {
    const q = odata("Tickets").select("TicketId", "IssuedAt", "Status");
    expectTypeOf<RowOf<typeof q>>().toEqualTypeOf<{
      TicketId: string;
      IssuedAt: string;
      Status: "valid" | "used" | "cancelled";
    }>();
    expectTypeOf<BiRow<"Payments">["CompletedAt"]>().toEqualTypeOf<string | null>();
    expectTypeOf<BiRow<"Orders">["TotalAmount"]>().toEqualTypeOf<number>();
    // Type-level only: never called, so the deliberately wrong calls below do not throw.
    const typeChecks = () => {
      // @ts-expect-error unknown property
      odata("Tickets").select("nope");
      // @ts-expect-error Orders has no IssuedAt
      odata("Orders").orderBy("IssuedAt");
      odata("Tickets").filter((f) =>
        f.and(
          f.gt("IssuedAt", new Date()),
          f.gt("IssuedAt", "2025-01-01T00:00:00Z"),
          f.eq("HolderName", null),
          // @ts-expect-error not one of the ticket statuses
          f.eq("Status", "bogus"),
          // @ts-expect-error a number is not a ticket status
          f.eq("Status", 3),
          // @ts-expect-error Status is not nullable
          f.eq("Status", null),
          // @ts-expect-error a Date only fits date-time properties
          f.eq("EventId", new Date()),
          // @ts-expect-error contains works on strings only
          f.contains("PriceAmount", "1"),
          // @ts-expect-error year() needs a date-time property
          f.year("Status"),
          // @ts-expect-error year() compares with numbers
          f.eq(f.year("IssuedAt"), "2025"),
        ),
      );
    };
    expectTypeOf(typeChecks).toBeFunction();
  });
});
