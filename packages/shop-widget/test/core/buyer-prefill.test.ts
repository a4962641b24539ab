import { InvalidArgumentError } from "@entrada/sdk/shop";
import { describe, expect, it } from "vitest";
import { resolvePrefill } from "../../src/core/buyer-prefill";

const named = (r: ReturnType<typeof resolvePrefill>) => r.problems.map((p) => p.argument);

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

  it("names every option the host got wrong, as the SDK's invalid-argument error, and leaves it out", () => {
    const r = resolvePrefill({ email: "anna@", lastName: 7, company: "C".repeat(201), age: 3 }, [
      "email",
      "phone",
      "iban",
    ]);
    expect(r.values).toEqual({});
    expect(r.locked).toEqual([]);
    expect(r.problems.every((p) => p instanceof InvalidArgumentError && p.kind === "invalid-argument")).toBe(
      true,
    );
    expect(named(r)).toEqual([
      "buyer.age",
      "buyer.lastName",
      "buyer.email",
      "buyer.company",
      "buyer.phone",
      "lockBuyer",
    ]);
    expect(r.problems[3]?.message).toBe(
      "EntradaShop: buyer.company is longer than 200 characters; the buyer sees the field empty and editable",
    );
  });

  it("rejects a buyer or lockBuyer of the wrong shape", () => {
    expect(named(resolvePrefill("anna@example.ch", "email"))).toEqual(["buyer", "lockBuyer"]);
    expect(resolvePrefill(undefined, undefined)).toEqual({ values: {}, locked: [], problems: [] });
  });
});
