import { describe, expect, it } from "vitest";
import { groupCardNumber, orderNumber } from "../../src/core/checkout-format";
import { formatDate } from "../../src/core/format";

describe("display formats", () => {
  it("groups a card number in fours, whatever was typed or pasted, at most 19 digits", () => {
    expect(groupCardNumber("4242424242424242")).toBe("4242 4242 4242 4242");
    expect(groupCardNumber("4242-4242 42424242")).toBe("4242 4242 4242 4242");
    expect(groupCardNumber("37828224631000")).toBe("3782 8224 6310 00");
    expect(groupCardNumber("1".repeat(25))).toBe("1111 1111 1111 1111 111");
    expect(groupCardNumber("abc")).toBe("");
  });

  it("shows a short order number instead of the raw id", () => {
    expect(orderNumber("ord_01M84XMRFN0H2N74QEQC67YR0A")).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(orderNumber("ord_01M84XMRFN0H2N74QEQC67YR0A")).toBe("QC67-YR0A");
    expect(orderNumber("ord_abc")).toBe("ABC");
  });

  it("formats days, times and months for the culture, in the event's time zone", () => {
    const iso = "2026-12-05T18:30:00Z";
    expect(formatDate(iso, "en-GB", "Europe/Zurich", "day")).toBe("Sat, 5 Dec 2026");
    expect(formatDate(iso, "de-CH", "Europe/Zurich", "time")).toBe("19:30");
    expect(formatDate(iso, "fr-CH", "Europe/Zurich", "month")).toBe("décembre 2026");
    expect(formatDate(iso, "en-GB", "America/New_York", "time")).toBe("13:30");
  });
});
