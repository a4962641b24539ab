import type { RequestHandler } from "msw";
import { describe, expectTypeOf, it } from "vitest";
import {
  type Culture,
  createEntradaMock,
  defineSection,
  type MockCore,
  type OperationContext,
  type SectionModule,
} from "../src/index.ts";
import { createMock, createMockHandlers, type EntradaMsw } from "../src/msw/index.ts";
import { type MockServer, startMockServer } from "../src/node/index.ts";
import { browserTypes } from "./types-browser.ts";

describe("public types", () => {
  it("msw entry", () => {
    expectTypeOf(createMockHandlers).returns.toEqualTypeOf<RequestHandler[]>();
    expectTypeOf(createMock).returns.toEqualTypeOf<EntradaMsw>();
    expectTypeOf<EntradaMsw["completePayment"]>()
      .parameter(1)
      .toEqualTypeOf<"success" | "failure" | "cancel">();
    expectTypeOf<EntradaMsw["completePayment"]>().returns.resolves.toEqualTypeOf<string>();
    // @ts-expect-error baseUrl is required
    createMock({});
    // @ts-expect-error unknown options are rejected
    createMock({ baseUrl: "https://api.entrada.dev", port: 1 });
  });

  it("node entry", () => {
    expectTypeOf(startMockServer).returns.resolves.toEqualTypeOf<MockServer>();
    expectTypeOf<MockServer["url"]>().toEqualTypeOf<string>();
    expectTypeOf<MockServer["core"]>().toEqualTypeOf<MockCore>();
    // @ts-expect-error rateLimit is an object or false
    startMockServer({ rateLimit: true });
  });

  it("engine and section modules", () => {
    expectTypeOf(createEntradaMock).returns.toEqualTypeOf<MockCore>();
    expectTypeOf<OperationContext["culture"]>().toEqualTypeOf<Culture>();
    expectTypeOf<OperationContext["problem"]>().returns.toBeNever();
    const module: SectionModule<{ count: number }> = defineSection({
      name: "example",
      initialState: () => ({ count: 0 }),
      handlers: { getEvent: (ctx) => ctx.problem("not-found", ctx.params.eventId) },
    });
    expectTypeOf(module.initialState).returns.toEqualTypeOf<{ count: number }>();
    expectTypeOf(browserTypes.start).returns.resolves.toHaveProperty("completePayment");
  });
});
