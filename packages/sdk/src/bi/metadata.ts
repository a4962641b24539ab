/**
 * EDM kinds of the BI feed's properties, as the builder needs them to write literals: `string` → `'...'`,
 * `guid` → bare GUID, `int`/`decimal` → numbers, `boolean`, `date` → `2025-01-31`, `datetime` → RFC 3339 UTC,
 * all unquoted. A trailing `?` marks a nullable property.
 */
export type ODataKind = "string" | "guid" | "int" | "decimal" | "boolean" | "date" | "datetime";
export type ODataPropertySpec = ODataKind | `${ODataKind}?`;
export type EntitySetSpec = Readonly<Record<string, ODataPropertySpec>>;

/**
 * The four datasets of `/bi/v1/odata` and their properties, in `$metadata` order. Kept in step with the contract
 * (`packages/openapi/src/components/bi.yaml`) by a test.
 */
export const biEntitySets = {
  Orders: {
    id: "string",
    cartId: "string",
    status: "string",
    customerEmail: "string",
    currency: "string",
    totalAmount: "int",
    itemCount: "int",
    ticketCount: "int",
    paymentProviderId: "string?",
    createdAt: "datetime",
  },
  Tickets: {
    id: "string",
    orderId: "string",
    eventId: "string",
    slotId: "string",
    articleId: "string",
    status: "string",
    holderName: "string",
    priceAmount: "int",
    currency: "string",
    issuedAt: "datetime",
    eventDate: "date",
  },
  Payments: {
    id: "string",
    orderId: "string?",
    cartId: "string",
    status: "string",
    providerId: "string",
    amount: "int",
    currency: "string",
    createdAt: "datetime",
    completedAt: "datetime?",
  },
  Entrances: {
    id: "string",
    ticketId: "string",
    eventId: "string",
    gateId: "string",
    direction: "string",
    result: "string",
    scannedAt: "datetime",
  },
} as const satisfies Record<string, EntitySetSpec>;

export type BiEntitySets = typeof biEntitySets;
/** `Orders`, `Tickets`, `Payments` or `Entrances`. */
export type BiEntitySet = keyof BiEntitySets;
/** The property names of one dataset. */
export type BiProperty<S extends BiEntitySet> = keyof BiEntitySets[S] & string;

type BaseKind<P> = P extends `${infer K}?` ? K : P;
type JsonValue<K> = K extends "int" | "decimal" ? number : K extends "boolean" ? boolean : string;
type Nullable<P> = P extends `${string}?` ? null : never;

/** One row of a dataset as the feed returns it (JSON: dates and date-times are strings). */
export type BiRow<S extends BiEntitySet> = {
  -readonly [P in BiProperty<S>]: JsonValue<BaseKind<BiEntitySets[S][P]>> | Nullable<BiEntitySets[S][P]>;
};

/** What a filter accepts for a property: its JSON type, plus `Date` for dates and date-times. */
export type BiFilterValue<S extends BiEntitySet, P extends BiProperty<S>> =
  | JsonValue<BaseKind<BiEntitySets[S][P]>>
  | (BaseKind<BiEntitySets[S][P]> extends "date" | "datetime" ? Date : never)
  | Nullable<BiEntitySets[S][P]>;

/** Properties of a dataset whose kind is one of `K`. */
export type BiPropertyOfKind<S extends BiEntitySet, K extends ODataKind> = {
  [P in BiProperty<S>]: BaseKind<BiEntitySets[S][P]> extends K ? P : never;
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
