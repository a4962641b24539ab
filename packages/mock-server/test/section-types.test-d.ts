/**
 * Handlers are typed from the contract: a wrong response shape, an undocumented status, a misspelt parameter or
 * an unknown operationId fails to compile. (Run by vitest's typecheck mode.)
 */
import type { components } from "@entrada/openapi/schema";
import { describe, expectTypeOf, it } from "vitest";
import { type ContextOf, defineSection, type Handler, type ResultOf } from "../src/index.ts";

type Cart = components["schemas"]["Cart"];
declare const cart: Cart;

describe("defineSection", () => {
  it("types a handler's parameters, query and body from the operation", () => {
    expectTypeOf<ContextOf<"getCart">["params"]>().toEqualTypeOf<{ readonly id: string }>();
    expectTypeOf<ContextOf<"listGateScans">["params"]>().toEqualTypeOf<{ readonly gateId: string }>();
    expectTypeOf<ContextOf<"listGateScans">["query"]>().toHaveProperty("result");
    expectTypeOf<ContextOf<"updateCartItem">["body"]>().toEqualTypeOf<
      components["schemas"]["UpdateCartItemRequest"]
    >();
    // createCart's body is optional in the contract.
    expectTypeOf<ContextOf<"createCart">["body"]>().toEqualTypeOf<
      components["schemas"]["CreateCartRequest"] | undefined
    >();
    const h: Handler<"getCart"> = (ctx) => {
      // @ts-expect-error the path parameter is `id`, not `cartId`
      ctx.params.cartId;
      return { status: 200, body: cart };
    };
    expectTypeOf(h).returns.toEqualTypeOf<ResultOf<"getCart"> | Promise<ResultOf<"getCart">>>();
  });

  it("rejects a wrong response shape, an undocumented status and a wrong media type", () => {
    defineSection({
      name: "t",
      initialState: () => ({}),
      handlers: {
        getCart: () => ({ status: 200, body: cart }),
        // @ts-expect-error a Cart without `items` is not the documented 200 body
        createCart: () => ({ status: 201, body: { id: cart.id, status: "open", currency: "CHF" } }),
        // @ts-expect-error 202 is not a documented status of addCartItem
        addCartItem: () => ({ status: 202, body: cart }),
        // @ts-expect-error exits are not scans: listGateScans' items need `scannedAt` and admitted/denied
        listGateScans: () => ({
          status: 200,
          body: {
            items: [{ ...({} as components["schemas"]["ExitResult"]) }],
            nextCursor: null,
          },
        }),
        // @ts-expect-error the ticket PDF is application/pdf, not image/png
        getTicketPdf: () => ({ status: 200, contentType: "image/png", raw: new Uint8Array() }),
        getIcon: () => ({ status: 304 }),
      },
    });
  });

  it("rejects an operationId the contract does not have", () => {
    defineSection({
      name: "t",
      initialState: () => ({}),
      // @ts-expect-error no such operation
      handlers: { getThing: () => ({ status: 200, body: {} }) },
    });
  });
});
