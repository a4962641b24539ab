import { describe, expect, it } from "vitest";
import bi from "../../src/sections/bi/index.ts";
import entrance from "../../src/sections/entrance/index.ts";
import externalEntrance from "../../src/sections/external-entrance/index.ts";
import { read } from "../helpers.ts";
import { fakeShop, harness } from "./context.ts";

type Collection = {
  "@odata.context": string;
  "@odata.count"?: number;
  "@odata.nextLink"?: string;
  value: Record<string, unknown>[];
};

const BASE = "http://127.0.0.1:4010/bi/v1/odata";

function setup(seed: Record<string, unknown> = {}) {
  const h = harness([entrance, externalEntrance, bi], { slices: fakeShop(), seed });
  const list = (
    set: string,
    query: Record<string, string> = {},
    headers: Record<string, string> = {},
    culture?: "de-CH" | "en-GB" | "fr-CH",
  ) => {
    const search = new URLSearchParams(query).toString().replace(/%24/g, "$");
    return h.call(bi, `listBi${set}`, {
      query,
      // The feed takes its culture from Accept-Language (English when absent), as a client sends it.
      headers: culture ? { "accept-language": culture, ...headers } : headers,
      url: `${BASE}/${set}${search ? `?${search}` : ""}`,
      ...(culture ? { culture } : {}),
    });
  };
  return { h, list };
}

describe("bi: service document and metadata", () => {
  it("lists the four entity sets with an absolute context", async () => {
    const { h } = setup();
    const res = await h.call(bi, "getBiServiceDocument", { url: `${BASE}/` });
    expect(res.headers?.["odata-version"]).toBe("4.0");
    expect(res.body).toEqual({
      "@odata.context": `${BASE}/$metadata`,
      value: ["Orders", "Tickets", "Payments", "Entrances"].map((n) => ({
        name: n,
        kind: "EntitySet",
        url: n,
      })),
    });
  });

  it("serves CSDL XML by default and CSDL JSON on request", async () => {
    const { h } = setup();
    const xml = await h.call(bi, "getBiMetadata", { url: `${BASE}/$metadata` });
    expect(xml.contentType).toBe("application/xml");
    const text = xml.raw as string;
    expect(text).toContain('<edmx:Edmx Version="4.0"');
    expect(text).toContain('<EntitySet Name="Entrances" EntityType="Entrada.BI.Entrance">');
    expect(text).toContain(
      '<Property Name="TotalAmount" Type="Edm.Decimal" Nullable="false" Precision="18" Scale="2">',
    );
    expect(text).toMatch(/<EntityType Name="Order">\s*<Key><PropertyRef Name="OrderId"\/><\/Key>/);
    const json = await h.call(bi, "getBiMetadata", {
      url: `${BASE}/$metadata?$format=json`,
      query: { $format: "json" },
    });
    expect(json.body).toMatchObject({
      $Version: "4.0",
      $EntityContainer: "Entrada.BI.Container",
      "Entrada.BI": {
        Order: {
          $Kind: "EntityType",
          $Key: ["OrderId"],
          CustomerCompany: { $Type: "Edm.String", $Nullable: true },
        },
      },
    });
    const viaAccept = await h.call(bi, "getBiMetadata", {
      url: `${BASE}/$metadata`,
      headers: { accept: "application/json" },
    });
    expect(viaAccept.body).toHaveProperty("$Version");
  });
});

describe("bi: collections", () => {
  it("serves a seeded history of thousands of rows with server-driven paging and absolute nextLinks", async () => {
    const { list } = setup();
    const first = (await list("Tickets", { $count: "true" })).body as Collection;
    expect(first["@odata.count"]).toBeGreaterThan(2000);
    expect(first.value).toHaveLength(1000);
    expect(first["@odata.context"]).toBe(`${BASE}/$metadata#Tickets`);
    const next = new URL(first["@odata.nextLink"] as string);
    expect(next.origin + next.pathname).toBe(`${BASE}/Tickets`);
    expect(next.searchParams.get("$count")).toBe("true");
    const token = next.searchParams.get("$skiptoken") as string;
    expect(token.length).toBeLessThanOrEqual(512);
    const second = (await list("Tickets", { $count: "true", $skiptoken: token })).body as Collection;
    expect(second.value[0]?.TicketId).not.toBe(first.value[0]?.TicketId);
    expect(new Set([...first.value, ...second.value].map((r) => r.TicketId)).size).toBe(2000);
  });

  it("honours Prefer: odata.maxpagesize with Preference-Applied, capped at 5000", async () => {
    const { list } = setup();
    const small = await list("Orders", {}, { prefer: "odata.maxpagesize=25" });
    expect(small.headers?.["preference-applied"]).toBe("odata.maxpagesize=25");
    expect((small.body as Collection).value).toHaveLength(25);
    const big = await list("Orders", {}, { prefer: "return=minimal, odata.maxpagesize=99999" });
    expect(big.headers?.["preference-applied"]).toBe("odata.maxpagesize=5000");
    expect((await list("Orders")).headers).not.toHaveProperty("preference-applied");
  });

  it("includes live shop orders, tickets (shop and external), payments and entrance scans", async () => {
    const { h, list } = setup({ bi: { history: false } });
    h.clock.set("2026-12-05T18:30:00Z");
    await h.call(externalEntrance, "createExternalImport", {
      body: {
        vendor: "eventbrite",
        tickets: [{ externalId: "1", quicode: "EVB-1", eventId: "evt_CONCERT", holderName: "Luca Rossi" }],
      },
    });
    await h.call(entrance, "scanQuicode", {
      params: { gateId: "gte_HALLM" },
      body: { quicode: "Q1.tkt_A.K7P2", deviceId: "d1" },
    });
    await h.call(entrance, "scanQuicode", { params: { gateId: "gte_HALLM" }, body: { quicode: "EVB-1" } });
    await h.call(entrance, "scanQuicode", { params: { gateId: "gte_HALLM" }, body: { quicode: "nope" } });

    const orders = (await list("Orders")).body as Collection;
    expect(orders.value).toEqual([
      expect.objectContaining({
        OrderId: "ord_ONE",
        TotalAmount: 147,
        Currency: "CHF",
        TicketCount: 4,
        PaymentProviderId: "card",
        Channel: "api",
        CustomerLastName: "Muster",
      }),
    ]);
    const tickets = (
      await list("Tickets", { $filter: "Status eq 'used'", $orderby: "TicketId" }, {}, "en-GB")
    ).body as Collection;
    expect(tickets.value.map((t) => [t.TicketId, t.Source, t.EventName, t.FirstAdmittedAt])).toEqual([
      ["tkt_A", "shop", "Winter Concert", "2026-12-05T18:30:00.000Z"],
      [expect.stringMatching(/^xtk_/), "external", "Winter Concert", "2026-12-05T18:30:00.000Z"],
    ]);
    const payments = (await list("Payments")).body as Collection;
    expect(payments.value).toEqual([
      expect.objectContaining({ PaymentId: "pay_ONE", Amount: 147, Status: "succeeded", FailureCode: null }),
    ]);
    const scans = (
      await list(
        "Entrances",
        { $select: "Result,Reason,TicketSource,CategoryName,GateName", $orderby: "ScanId" },
        {},
        "fr-CH",
      )
    ).body as Collection;
    expect(scans["@odata.context"]).toBe(
      `${BASE}/$metadata#Entrances(Result,Reason,TicketSource,CategoryName,GateName)`,
    );
    expect(scans.value).toEqual([
      {
        Result: "admitted",
        Reason: null,
        TicketSource: "shop",
        CategoryName: "Billets de la boutique",
        GateName: "Entrée principale",
      },
      {
        Result: "admitted",
        Reason: null,
        TicketSource: "external",
        CategoryName: "Billets externes",
        GateName: "Entrée principale",
      },
      {
        Result: "denied",
        Reason: "unknown_quicode",
        TicketSource: null,
        CategoryName: "Billets externes",
        GateName: "Entrée principale",
      },
    ]);
  });

  it("filters the history like a warehouse loader would", async () => {
    const { list } = setup();
    const failed = (
      await list("Payments", {
        $filter: "Status eq 'failed' and FailureCode ne null",
        $count: "true",
        $top: "5",
      })
    ).body as Collection;
    expect(failed["@odata.count"]).toBeGreaterThan(0);
    expect(failed.value.every((p) => p.Status === "failed" && typeof p.FailureCode === "string")).toBe(true);
    const exits = (
      await list("Entrances", {
        $filter: "Direction eq 'exit' and Result eq 'exited'",
        $count: "true",
        $top: "0",
      })
    ).body as Collection;
    expect(exits["@odata.count"]).toBeGreaterThan(0);
    expect(exits.value).toEqual([]);
    const desc = (await list("Orders", { $orderby: "TotalAmount desc", $top: "3", $select: "TotalAmount" }))
      .body as Collection;
    const amounts = desc.value.map((o) => o.TotalAmount as number);
    expect([...amounts].sort((a, b) => b - a)).toEqual(amounts);
    expect(desc["@odata.nextLink"]).toBeUndefined();
  });

  it("answers errors as localized OData JSON with the log id, never as problem+json", async () => {
    const { list } = setup();
    const bad = await list("Orders", { $filter: "Totl gt 1" });
    expect(bad.status).toBe(400);
    expect(bad.headers?.["odata-version"]).toBe("4.0");
    expect(bad.headers?.["content-language"]).toBe("en-GB");
    expect(bad.contentType).toBe("application/json");
    expect(bad.body).toMatchObject({
      error: {
        code: "UnknownProperty",
        message: "The property 'Totl' does not exist in 'Orders'.",
        target: "$filter",
        details: [{ message: "Did you mean 'TotalAmount'?" }],
      },
    });
    const german = await list("Orders", { $filter: "Totl gt 1" }, {}, "de-CH");
    expect(german.body).toMatchObject({
      error: {
        message: "Die Eigenschaft «Totl» existiert in «Orders» nicht.",
        details: [{ message: "Meinten Sie «TotalAmount»?" }],
      },
    });
    // One language per message: a syntax error names what was expected in the message's own language.
    for (const [culture, text] of [
      ["en-GB", "Syntax error in $filter at position 17: expected the end of the expression, found 'x'."],
      ["de-CH", "Syntaxfehler in $filter an Position 17: erwartet das Ende des Ausdrucks, gefunden 'x'."],
    ] as const) {
      const syntax = await list("Orders", { $filter: "TicketCount gt 1 x" }, {}, culture);
      expect(read.odataErrorIn(syntax.body).error.message).toBe(text);
    }
    const expand = await list("Orders", { $expand: "Tickets" }, {}, "en-GB");
    expect(expand.status).toBe(501);
    expect(expand.body).toMatchObject({
      error: {
        code: "NotImplemented",
        message: "The query option '$expand' is not supported.",
        target: "$expand",
      },
    });
    const version = await list("Orders", {}, { "odata-maxversion": "3.0" });
    expect(version.status).toBe(400);
  });
});

describe("bi: engine problems as OData errors", () => {
  it("maps a problem+json from the engine to the OData JSON error shape", async () => {
    const { problemToODataError } = await import("../../src/sections/bi/index.ts");
    expect(
      problemToODataError({
        status: 400,
        title: "Invalid request",
        detail: "The request does not match the contract.",
        logId: "log_1",
        errors: [{ pointer: "/query/$top", detail: "must be integer" }],
      }),
    ).toEqual({
      error: {
        code: "BadRequest",
        message: "The request does not match the contract.",
        target: "$top",
        details: [{ code: "BadRequest", message: "must be integer", target: "$top" }],
        innererror: { logId: "log_1" },
      },
    });
    expect(problemToODataError({ status: 401, title: "Unauthorized" }).error).toMatchObject({
      code: "Unauthorized",
      target: null,
      details: [],
    });
  });
});
