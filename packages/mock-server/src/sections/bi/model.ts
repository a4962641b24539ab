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

/**
 * The four analysis-ready datasets of the feed (names and types as in the contract's `Bi*` schemas). Amounts are
 * decimals in major units of `Currency`; textual values follow `Accept-Language`.
 */
export const ENTITY_SETS: readonly EntitySetDef[] = [
  {
    name: "Orders",
    type: "Order",
    key: "OrderId",
    description: "One row per order (paid, refunded or cancelled).",
    properties: [
      p("OrderId", "String", "Order id (ord_...)."),
      p("CartId", "String", "Cart the order was paid from."),
      p("CreatedAt", "DateTimeOffset", "When the order was paid."),
      p("Status", "String", "paid, partially_refunded, refunded or cancelled."),
      p("Currency", "String", "ISO 4217 currency code."),
      p("TotalAmount", "Decimal", "Order total in major units."),
      p("RefundedAmount", "Decimal", "Amount refunded so far in major units."),
      p("DiscountAmount", "Decimal", "What the voucher took off in major units (0 without one)."),
      p("VoucherCode", "String", "Voucher code applied at checkout.", true),
      p("TicketCount", "Int32", "Number of tickets in the order."),
      p("PaymentProviderId", "String", "Payment provider of the successful payment."),
      p("Channel", "String", "api (direct integration) or widget (embedded shop)."),
      p("Culture", "String", "Culture of the purchase (de-CH, fr-CH, it-CH, en-GB)."),
      p("CustomerEmail", "String", "Buyer e-mail address."),
      p("CustomerFirstName", "String", "Buyer first name."),
      p("CustomerLastName", "String", "Buyer last name."),
      p("CustomerCompany", "String", "Buyer company.", true),
      p("ModifiedAt", "DateTimeOffset", "When the row last changed (paid, refunded or cancelled)."),
    ],
  },
  {
    name: "Tickets",
    type: "Ticket",
    key: "TicketId",
    description: "One row per ticket, shop and imported external tickets, with its first admission.",
    properties: [
      p("TicketId", "String", "Ticket id (tkt_ for shop tickets, xtk_ for imported ones)."),
      p("Source", "String", "shop or external."),
      p("Vendor", "String", "Registration vendor of an imported ticket.", true),
      p("OrderId", "String", "Order of a shop ticket.", true),
      p("EventId", "String", "Event id (evt_...)."),
      p("EventName", "String", "Event name in the request's culture."),
      p("EventStartsAt", "DateTimeOffset", "When the event starts."),
      p("VenueName", "String", "Venue of the event."),
      p("VenueTimeZone", "String", "IANA time zone of the venue (e.g. Europe/Zurich)."),
      p("SlotId", "String", "Booked slot.", true),
      p("SlotStartsAt", "DateTimeOffset", "Start of the booked slot.", true),
      p("ArticleId", "String", "Article id (art_...).", true),
      p("ArticleName", "String", "Article name in the request's culture.", true),
      p("PriceAmount", "Decimal", "Price paid for this ticket in major units.", true),
      p("Currency", "String", "ISO 4217 currency code.", true),
      p("HolderName", "String", "Ticket holder.", true),
      p("Status", "String", "valid, used or cancelled."),
      p("IssuedAt", "DateTimeOffset", "When the ticket was issued or imported."),
      p("FirstAdmittedAt", "DateTimeOffset", "First admission at a gate.", true),
      p(
        "ModifiedAt",
        "DateTimeOffset",
        "When the row last changed (issued, imported, status change, first admission).",
      ),
    ],
  },
  {
    name: "Payments",
    type: "Payment",
    key: "PaymentId",
    description: "One row per payment attempt, including failed and cancelled ones.",
    properties: [
      p("PaymentId", "String", "Payment id (pay_...)."),
      p("CartId", "String", "Cart the payment was made for."),
      p("OrderId", "String", "Order paid by this payment (succeeded payments only).", true),
      p("PaymentProviderId", "String", "Payment provider id."),
      p(
        "Status",
        "String",
        "pending, succeeded, failed, cancelled, expired, refunded, partially_refunded or disputed.",
      ),
      p("Amount", "Decimal", "Amount in major units."),
      p("Currency", "String", "ISO 4217 currency code."),
      p("CreatedAt", "DateTimeOffset", "When the payment started."),
      p("CompletedAt", "DateTimeOffset", "When the payment reached a final state.", true),
      p("FailureCode", "String", "Why a payment failed (card_declined, ...).", true),
      p("ModifiedAt", "DateTimeOffset", "When the row last changed (started or reached a final state)."),
    ],
  },
  {
    name: "Entrances",
    type: "Entrance",
    key: "ScanId",
    description: "One row per scan at a gate: entries and exits, admitted and denied.",
    properties: [
      p("ScanId", "String", "Scan log id (scn_...)."),
      p("EventId", "String", "Event of the ticket, null for unknown codes.", true),
      p("GateId", "String", "Gate id (gte_...)."),
      p("GateName", "String", "Gate name in the request's culture."),
      p("VenueTimeZone", "String", "IANA time zone of the gate's venue (e.g. Europe/Zurich)."),
      p("Direction", "String", "entry or exit."),
      p("Result", "String", "admitted, denied, exited or rejected."),
      p("Reason", "String", "Denial or rejection reason, null when admitted or exited.", true),
      p("TicketId", "String", "Ticket id (tkt_ or xtk_), null for unknown codes.", true),
      p("TicketSource", "String", "shop or external, null for unknown codes.", true),
      p("CategoryId", "String", "Quicode category (first matching pattern).", true),
      p("CategoryName", "String", "Quicode category name in the request's culture.", true),
      p("ScannedAt", "DateTimeOffset", "When the device read the code."),
      p("DeviceId", "String", "Scanning device.", true),
      p("ModifiedAt", "DateTimeOffset", "When the scan was recorded (scans never change)."),
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
