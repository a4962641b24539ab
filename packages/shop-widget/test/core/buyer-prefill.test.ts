import { describe, expect, it } from "vitest";
import { resolvePrefill } from "../../src/core/buyer-prefill";

const pointers = (r: ReturnType<typeof resolvePrefill>) => r.problems.map((p) => p.fieldErrors[0]?.pointer);

describe("resolvePrefill", () => {
  it("keeps valid values (trimmed) and locks only fields that have one", () => {
    const r = resolvePrefill({ firstName: " Anna ", email: "anna@example.ch", phone: "" }, [
      "email",
      "firstName",
    ]);
    expect(r.values).toEqual({ firstName: "Anna", email: "anna@example.ch" });
    expect(r.locked).toEqual(["email", "firstName"]);
    expect(r.problems).toEqual([]);
  });

  it("names every field the host got wrong, as an invalid-config error, and leaves it out", () => {
    const r = resolvePrefill({ email: "anna@", lastName: 7, company: "C".repeat(201), age: 3 }, [
      "email",
      "phone",
      "iban",
    ]);
    expect(r.values).toEqual({});
    expect(r.locked).toEqual([]);
    expect(r.problems.every((p) => p.kind === "invalid-config")).toBe(true);
    expect(pointers(r)).toEqual([
      "/config/buyer/age",
      "/config/buyer/lastName",
      "/config/buyer/email",
      "/config/buyer/company",
      "/config/buyer/phone",
      "/config/lockBuyer",
    ]);
    expect(r.problems[3]?.message).toBe(
      "EntradaShop: buyer.company is longer than 200 characters; the buyer sees the field empty and editable",
    );
  });

  it("rejects a buyer or lockBuyer of the wrong shape", () => {
    expect(pointers(resolvePrefill("anna@example.ch", "email"))).toEqual([
      "/config/buyer",
      "/config/lockBuyer",
    ]);
    expect(resolvePrefill(undefined, undefined)).toEqual({ values: {}, locked: [], problems: [] });
  });
});
