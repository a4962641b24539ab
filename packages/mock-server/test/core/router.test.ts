import { describe, expect, it } from "vitest";
import { Router } from "../../src/core/router.ts";

function router() {
  const r = new Router<string>();
  r.add("GET", "/shop/v1/cart/{id}", "getCart");
  r.add("POST", "/shop/v1/cart/{id}/items", "addItem");
  r.add("GET", "/shop/v1/cart/payment-providers", "static");
  r.add("GET", "/assets/v1/tickets/{ticketId}.pdf", "pdf");
  r.add("GET", "/bi/v1/odata/$metadata", "metadata");
  r.add("GET", "/bi/v1/odata/{set}", "set");
  return r;
}

describe("Router", () => {
  it("prefers static segments over parameters and decodes parameters", () => {
    const r = router();
    expect(r.match("GET", "/shop/v1/cart/payment-providers")).toMatchObject({
      kind: "found",
      route: "static",
    });
    expect(r.match("GET", "/shop/v1/cart/crt_1%20x")).toMatchObject({
      kind: "found",
      route: "getCart",
      params: { id: "crt_1 x" },
    });
    expect(r.match("GET", "/bi/v1/odata/$metadata")).toMatchObject({ route: "metadata" });
    expect(r.match("GET", "/bi/v1/odata/Orders")).toMatchObject({ route: "set", params: { set: "Orders" } });
  });

  it("walks a path without parameters once: repeats get the route and params of their own; added routes count", () => {
    const r = router();
    const first = r.match("GET", "/shop/v1/cart/payment-providers");
    const again = r.match("get", "/shop/v1/cart/payment-providers");
    expect(again).toEqual(first);
    if (first.kind !== "found" || again.kind !== "found") throw new Error("expected matches");
    first.params.changed = "yes";
    expect(again.params).toEqual({});
    expect(r.match("GET", "/shop/v1/cart/payment-providers")).toMatchObject({ params: {} });
    expect(r.match("POST", "/shop/v1/cart/payment-providers").kind).toBe("method-not-allowed");
    r.add("POST", "/shop/v1/cart/payment-providers", "added");
    expect(r.match("POST", "/shop/v1/cart/payment-providers")).toMatchObject({
      kind: "found",
      route: "added",
    });
    r.add("GET", "/shop/v1/cart/payment-providers", "replaced");
    expect(r.match("GET", "/shop/v1/cart/payment-providers")).toMatchObject({ route: "replaced" });
    // Paths with parameters are walked every time (each id is another path): decoded as before.
    expect(r.match("GET", "/shop/v1/cart/crt_2")).toMatchObject({
      route: "getCart",
      params: { id: "crt_2" },
    });
  });

  it("matches parameters inside a segment", () => {
    expect(router().match("GET", "/assets/v1/tickets/tkt_1.pdf")).toMatchObject({
      route: "pdf",
      params: { ticketId: "tkt_1" },
    });
    expect(router().match("GET", "/assets/v1/tickets/tkt_1.png").kind).toBe("not-found");
  });

  it("answers 405 with the allowed methods, HEAD following GET", () => {
    expect(router().match("DELETE", "/shop/v1/cart/crt_1")).toEqual({
      kind: "method-not-allowed",
      allow: ["GET"],
      template: "/shop/v1/cart/{id}",
    });
    expect(router().match("HEAD", "/shop/v1/cart/crt_1")).toMatchObject({ kind: "found", route: "getCart" });
  });

  it("never matches traversal, encoded slashes, NULs or bad escapes", () => {
    const r = router();
    for (const path of [
      "/shop/v1/cart/..",
      "/shop/v1/cart/%2E%2E",
      "/shop/v1/cart/a%2Fb",
      "/shop/v1/cart/%00",
      "/shop/v1/cart/%E0%A4%A",
      "/shop/v1/cart/",
      "shop/v1/cart/x",
      "/shop/v1/cart/x/",
      "/shop/v1/cart/a%5Cb",
    ]) {
      expect(r.match("GET", path).kind, path).toBe("not-found");
    }
  });
});
