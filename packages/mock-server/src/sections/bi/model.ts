import type { EdmType, PropertyTypes } from "./odata/parser.ts";

/** One property of an entity type, with the facets the CSDL advertises. */
export interface PropertyDef {
  name: string;
  type: Exclude<EdmType, "Null">;
  nullable: boolean;
  description: string;
}

export interface EntitySetDef {
  /** Entity set name as it appears in URLs (`/Orders`). */
  name: string;
  /** Entity type name in the `Entrada.BI` namespace. */
  type: string;
  key: string;
  description: string;
  properties: PropertyDef[];
}

export const NAMESPACE = "Entrada.BI";

const p = (name: string, type: PropertyDef["type"], description: string, nullable = false): PropertyDef => ({
  name,
  type,
  nullable,
  description,
});

/** The four analysis-ready datasets of the feed. Amounts are decimals in major units of `currency`. */
export const ENTITY_SETS: readonly EntitySetDef[] = [
  {
    name: "Orders",
    type: "Order",
    key: "orderId",
    description: "One row per paid order.",
    properties: [
      p("orderId", "String", "Order id (ord_...)."),
      p("createdAt", "DateTimeOffset", "When the order was paid."),
      p("status", "String", "paid, refunded or cancelled."),
      p("channel", "String", "api, widget or box_office."),
      p("culture", "String", "Culture of the purchase (de-CH, fr-CH, it-CH, en-GB)."),
      p("currency", "String", "ISO 4217 currency code."),
      p("totalAmount", "Decimal", "Order total in major units."),
      p("ticketCount", "Int32", "Number of tickets in the order."),
      p("customerEmail", "String", "Buyer e-mail address.", true),
      p("customerCountry", "String", "Buyer country (ISO 3166-1 alpha-2) when known.", true),
    ],
  },
  {
    name: "Tickets",
    type: "Ticket",
    key: "ticketId",
    description: "One row per issued ticket.",
    properties: [
      p("ticketId", "String", "Ticket id (tkt_...)."),
      p("orderId", "String", "Order the ticket belongs to."),
      p("eventId", "String", "Event id (evt_...)."),
      p("eventName", "String", "Event name in the request's culture."),
      p("venueId", "String", "Venue id (ven_...).", true),
      p("venueName", "String", "Venue name.", true),
      p("eventDate", "Date", "Day of the event (venue local date).", true),
      p("slotStartsAt", "DateTimeOffset", "Start of the booked slot.", true),
      p("articleId", "String", "Article id (art_...)."),
      p("articleName", "String", "Article name in the request's culture."),
      p("priceAmount", "Decimal", "Price paid for this ticket in major units."),
      p("currency", "String", "ISO 4217 currency code."),
      p("status", "String", "valid, used or cancelled."),
      p("issuedAt", "DateTimeOffset", "When the ticket was issued."),
    ],
  },
  {
    name: "Payments",
    type: "Payment",
    key: "paymentId",
    description: "One row per payment attempt, including declined and cancelled ones.",
    properties: [
      p("paymentId", "String", "Payment id (pay_...)."),
      p("orderId", "String", "Order paid by this payment (null unless succeeded).", true),
      p("cartId", "String", "Cart the payment was made for."),
      p("providerId", "String", "Payment provider id."),
      p("status", "String", "succeeded, failed, cancelled or pending."),
      p("amount", "Decimal", "Amount in major units."),
      p("currency", "String", "ISO 4217 currency code."),
      p("createdAt", "DateTimeOffset", "When the payment started."),
      p("completedAt", "DateTimeOffset", "When the payment reached a final state.", true),
    ],
  },
  {
    name: "Entrances",
    type: "Entrance",
    key: "scanId",
    description: "One row per scan at a gate: admissions, denials and exits.",
    properties: [
      p("scanId", "String", "Scan log id (scn_...)."),
      p("scannedAt", "DateTimeOffset", "When the device read the code."),
      p("gateId", "String", "Gate id (gte_...)."),
      p("eventId", "String", "Event of the ticket, null for unknown codes.", true),
      p("ticketId", "String", "Ticket id (tkt_ or xtk_), null for unknown codes.", true),
      p("direction", "String", "in or out."),
      p("result", "String", "admitted, denied, exited or rejected."),
      p("reason", "String", "Denial reason, null when admitted.", true),
      p(
        "categoryName",
        "String",
        "Quicode category (first matching pattern), null when uncategorized.",
        true,
      ),
      p("deviceId", "String", "Scanning device.", true),
      p("source", "String", "shop or external, null for unknown codes.", true),
    ],
  },
];

export function entitySet(name: string): EntitySetDef | undefined {
  return ENTITY_SETS.find((s) => s.name === name);
}

export function propertyTypes(set: EntitySetDef): PropertyTypes {
  return Object.fromEntries(set.properties.map((prop) => [prop.name, prop.type]));
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function facets(prop: PropertyDef): string {
  const parts = [`Name="${prop.name}"`, `Type="Edm.${prop.type}"`];
  if (!prop.nullable) parts.push(`Nullable="false"`);
  if (prop.type === "Decimal") parts.push(`Precision="18"`, `Scale="2"`);
  if (prop.type === "DateTimeOffset") parts.push(`Precision="3"`);
  return parts.join(" ");
}

/** CSDL XML (OData v4.0), the format Power BI, Excel and Tableau read. */
export function metadataXml(): string {
  const types = ENTITY_SETS.map(
    (set) => `      <EntityType Name="${set.type}">
        <Key><PropertyRef Name="${set.key}"/></Key>
${set.properties
  .map(
    (prop) =>
      `        <Property ${facets(prop)}>
          <Annotation Term="Org.OData.Core.V1.Description" String="${xmlEscape(prop.description)}"/>
        </Property>`,
  )
  .join("\n")}
      </EntityType>`,
  ).join("\n");
  const sets = ENTITY_SETS.map(
    (set) => `        <EntitySet Name="${set.name}" EntityType="${NAMESPACE}.${set.type}">
          <Annotation Term="Org.OData.Core.V1.Description" String="${xmlEscape(set.description)}"/>
        </EntitySet>`,
  ).join("\n");
  return `<?xml version="1.0" encoding="utf-8"?>
<edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">
  <edmx:Reference Uri="https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Core.V1.xml">
    <edmx:Include Namespace="Org.OData.Core.V1" Alias="Core"/>
  </edmx:Reference>
  <edmx:DataServices>
    <Schema Namespace="${NAMESPACE}" xmlns="http://docs.oasis-open.org/odata/ns/edm">
${types}
      <EntityContainer Name="Container">
${sets}
      </EntityContainer>
    </Schema>
  </edmx:DataServices>
</edmx:Edmx>
`;
}

/** CSDL JSON (OData CSDL JSON v4.01), served for `$format=json` or `Accept: application/json`. */
export function metadataJson(): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  for (const set of ENTITY_SETS) {
    const type: Record<string, unknown> = { $Kind: "EntityType", $Key: [set.key] };
    for (const prop of set.properties) {
      const def: Record<string, unknown> = { $Type: `Edm.${prop.type}` };
      if (prop.nullable) def.$Nullable = true;
      if (prop.type === "Decimal") Object.assign(def, { $Precision: 18, $Scale: 2 });
      if (prop.type === "DateTimeOffset") def.$Precision = 3;
      def["@Org.OData.Core.V1.Description"] = prop.description;
      type[prop.name] = def;
    }
    schema[set.type] = type;
  }
  const container: Record<string, unknown> = { $Kind: "EntityContainer" };
  for (const set of ENTITY_SETS) {
    container[set.name] = {
      $Collection: true,
      $Type: `${NAMESPACE}.${set.type}`,
      "@Org.OData.Core.V1.Description": set.description,
    };
  }
  schema.Container = container;
  return { $Version: "4.0", $EntityContainer: `${NAMESPACE}.Container`, [NAMESPACE]: schema };
}
