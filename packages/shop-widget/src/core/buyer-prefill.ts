import { InvalidArgumentError } from "@entrada/sdk/shop";
import type { BuyerField } from "../config";
import { type CustomerFields, validateCustomer } from "./validate";

export const BUYER_FIELDS: readonly BuyerField[] = ["firstName", "lastName", "email", "phone", "company"];

export interface Prefill {
  /** The values that passed validation (trimmed). */
  values: Partial<CustomerFields>;
  /** Locked fields that have a valid value. */
  locked: BuyerField[];
  /** One `invalid-argument` error per option the host got wrong, naming it (`argument: "buyer.email"`). */
  problems: InvalidArgumentError[];
}

const problem = (field: string, why: string) =>
  new InvalidArgumentError(
    field,
    `EntradaShop: ${field} ${why}; the buyer sees the field empty and editable`,
  );

/**
 * The host's `buyer` and `lockBuyer`, checked as if the buyer had typed them (`validateCustomer`): what passes
 * prefills the details form, a locked field that passes is read-only, and everything else is left out and
 * reported to the host. An empty or absent value is simply not prefilled (reported only when locked).
 */
export function resolvePrefill(buyer: unknown, lockBuyer: unknown): Prefill {
  const values: Partial<CustomerFields> = {};
  const problems: InvalidArgumentError[] = [];
  const given = typeof buyer === "object" && buyer !== null ? (buyer as Record<string, unknown>) : {};
  if (buyer !== undefined && (typeof buyer !== "object" || buyer === null))
    problems.push(problem("buyer", "is not an object"));
  for (const key of Object.keys(given)) {
    if (!(BUYER_FIELDS as readonly string[]).includes(key))
      problems.push(problem(`buyer.${key}`, "is not a buyer field"));
  }
  const draft: CustomerFields = {
    firstName: "x",
    lastName: "x",
    email: "x@example.com",
    phone: "",
    company: "",
  };
  for (const field of BUYER_FIELDS) {
    const value = given[field];
    if (value === undefined || value === null || value === "") continue;
    if (typeof value !== "string") {
      problems.push(problem(`buyer.${field}`, "is not a string"));
      continue;
    }
    const issue = validateCustomer({ ...draft, [field]: value })[field];
    if (issue !== undefined) {
      const why = {
        email: "is not an e-mail address",
        maxLength: `is longer than ${issue.count} characters`,
      }[issue.key as "email" | "maxLength"];
      problems.push(problem(`buyer.${field}`, why ?? "is not valid"));
      continue;
    }
    values[field] = value.trim();
  }
  const locked: BuyerField[] = [];
  for (const field of Array.isArray(lockBuyer) ? (lockBuyer as unknown[]) : []) {
    if (!(BUYER_FIELDS as readonly unknown[]).includes(field)) {
      problems.push(problem("lockBuyer", `names ${JSON.stringify(field)}, not a buyer field`));
    } else if (values[field as BuyerField] === undefined) {
      // Reported above when the value was wrong; a lock without any value is its own mistake.
      if (given[field as string] === undefined || given[field as string] === "")
        problems.push(problem(`buyer.${field}`, "is locked but not given"));
    } else if (!locked.includes(field as BuyerField)) locked.push(field as BuyerField);
  }
  if (lockBuyer !== undefined && !Array.isArray(lockBuyer))
    problems.push(problem("lockBuyer", "is not an array"));
  return { values, locked, problems };
}
