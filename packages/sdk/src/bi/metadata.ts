/**
 * EDM kinds of the BI feed's properties, as the builder needs them to write literals: `string` → `'...'`,
 * `guid` → bare GUID, `int`/`decimal` → numbers, `boolean`, `date` → `2025-01-31`, `datetime` → RFC 3339 UTC,
 * all unquoted. A trailing `?` marks a nullable property.
 */
export type ODataKind = "string" | "guid" | "int" | "decimal" | "boolean" | "date" | "datetime";
export type ODataPropertySpec = ODataKind | `${ODataKind}?`;
export type EntitySetSpec = Readonly<Record<string, ODataPropertySpec>>;

import type { components } from "../generated/schema.ts";

type Schemas = components["schemas"];

/**
 * Row types of the four datasets, from the contract (`components/bi.yaml`). The contract lists no `required`
 * properties (a `$select` omits the others); a full row has them all, so they are required here.
 */
export interface BiRows {
  Orders: Required<Schemas["BiOrder"]>;
  Tickets: Required<Schemas["BiTicket"]>;
  Payments: Required<Schemas["BiPayment"]>;
  Entrances: Required<Schemas["BiEntrance"]>;
}

/** `Orders`, `Tickets`, `Payments` or `Entrances`. */
export type BiEntitySet = keyof BiRows;
/** The property names of one dataset. */
export type BiProperty<S extends BiEntitySet> = keyof BiRows[S] & string;
/** One row of a dataset as the feed returns it (JSON: date-times are strings). */
export type BiRow<S extends BiEntitySet> = BiRows[S];

/**
 * The EDM kind of every property of the four datasets of `/bi/v1/odata`, in `$metadata` order. The type below
 * makes the compiler reject a missing or extra property; a test checks the kinds against the bundled contract.
 */
export const biEntitySets = {
  Orders: {
    OrderId: "string",
    CartId: "string",
    CreatedAt: "datetime",
    Status: "string",
    Currency: "string",
    TotalAmount: "decimal",
    RefundedAmount: "decimal",
    DiscountAmount: "decimal",
    VoucherCode: "string?",
    TicketCount: "int",
    PaymentProviderId: "string",
    Channel: "string",
    Culture: "string",
    CustomerEmail: "string",
    CustomerFirstName: "string",
    CustomerLastName: "string",
    CustomerCompany: "string?",
    ModifiedAt: "datetime",
  },
  Tickets: {
    TicketId: "string",
    Source: "string",
    Vendor: "string?",
    OrderId: "string?",
    EventId: "string",
    EventName: "string",
    EventStartsAt: "datetime",
    VenueName: "string",
    VenueTimeZone: "string",
    SlotId: "string?",
    SlotStartsAt: "datetime?",
    ArticleId: "string?",
    ArticleName: "string?",
    PriceAmount: "decimal?",
    Currency: "string?",
    HolderName: "string?",
    Status: "string",
    IssuedAt: "datetime",
    FirstAdmittedAt: "datetime?",
    ModifiedAt: "datetime",
  },
  Payments: {
    PaymentId: "string",
    CartId: "string",
    OrderId: "string?",
    PaymentProviderId: "string",
    Status: "string",
    Amount: "decimal",
    Currency: "string",
    CreatedAt: "datetime",
    CompletedAt: "datetime?",
    FailureCode: "string?",
    ModifiedAt: "datetime",
  },
  Entrances: {
    ScanId: "string",
    EventId: "string?",
    GateId: "string",
    GateName: "string",
    VenueTimeZone: "string",
    Direction: "string",
    Result: "string",
    Reason: "string?",
    TicketId: "string?",
    TicketSource: "string?",
    CategoryId: "string?",
    CategoryName: "string?",
    ScannedAt: "datetime",
    DeviceId: "string?",
    ModifiedAt: "datetime",
  },
} as const satisfies { [S in BiEntitySet]: { [P in BiProperty<S>]: ODataPropertySpec } };

export type BiEntitySets = typeof biEntitySets;

type BaseKind<P> = P extends `${infer K}?` ? K : P;
type KindOf<S extends BiEntitySet, P extends BiProperty<S>> = BaseKind<
  BiEntitySets[S][P & keyof BiEntitySets[S]]
>;

/** What a filter accepts for a property: its row type, plus `Date` for dates and date-times. */
export type BiFilterValue<S extends BiEntitySet, P extends BiProperty<S>> =
  | BiRows[S][P]
  | (KindOf<S, P> extends "date" | "datetime" ? Date : never);

/** Properties of a dataset whose kind is one of `K`. */
export type BiPropertyOfKind<S extends BiEntitySet, K extends ODataKind> = {
  [P in BiProperty<S>]: KindOf<S, P> extends K ? P : never;
}[BiProperty<S>];

export const isEntitySet = (name: string): name is BiEntitySet => Object.hasOwn(biEntitySets, name);

/** The kind of `property` in `set`, or a TypeError naming the valid properties. */
export function propertyKind(set: BiEntitySet, property: string): { kind: ODataKind; nullable: boolean } {
  const spec = (biEntitySets[set] as EntitySetSpec)[property];
  if (typeof property !== "string" || !Object.hasOwn(biEntitySets[set], property) || !spec) {
    throw new TypeError(
      `Unknown property "${String(property)}" of ${set}; expected one of ${Object.keys(biEntitySets[set]).join(", ")}`,
    );
  }
  const nullable = spec.endsWith("?");
  return { kind: (nullable ? spec.slice(0, -1) : spec) as ODataKind, nullable };
}
