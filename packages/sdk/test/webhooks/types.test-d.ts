import { describe, expectTypeOf, it } from "vitest";
import {
  type SignedWebhookHeaders,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
} from "../../src/webhooks/index.ts";

describe("webhook event types", () => {
  it("are the union of the contract's 30 kinds", () => {
    expectTypeOf<WebhookEventType>().toEqualTypeOf<
      | "cart.completed"
      | "cart.created"
      | "cart.customer_attached"
      | "cart.expired"
      | "cart.item_added"
      | "cart.item_removed"
      | "cart.item_updated"
      | "cart.locked"
      | "cart.payment_provider_selected"
      | "cart.unlocked"
      | "entrance.admitted"
      | "entrance.capacity_reached"
      | "entrance.capacity_released"
      | "entrance.denied"
      | "entrance.exited"
      | "entrance.external_import_completed"
      | "payment.cancelled"
      | "payment.disputed"
      | "payment.expired"
      | "payment.failed"
      | "payment.pending"
      | "payment.refunded"
      | "payment.succeeded"
      | "ticket.cancelled"
      | "ticket.downloaded"
      | "ticket.issued"
      | "ticket.personalized"
      | "ticket.reissued"
      | "ticket.transferred"
      | "ticket.used"
    >();
  });

  it("narrow data by type", () => {
    const handle = (event: WebhookEvent) => {
      if (event.type === "ticket.issued") {
        expectTypeOf(event.data.ticket.id).toEqualTypeOf<string>();
        expectTypeOf(event.data.ticket.holderName).toEqualTypeOf<string | null>();
        expectTypeOf(event.data.ticket.status).toEqualTypeOf<"valid" | "used" | "cancelled">();
      }
      expectTypeOf(event.timestamp).toEqualTypeOf<string>();
    };
    expectTypeOf(handle).toBeFunction();
    expectTypeOf<WebhookEventOf<"ticket.issued">["type"]>().toEqualTypeOf<"ticket.issued">();
  });

  it("verifyWebhook resolves to the union; signWebhook headers fit fetch and Node header shapes", () => {
    expectTypeOf(verifyWebhook).returns.resolves.toEqualTypeOf<WebhookEvent>();
    expectTypeOf<SignedWebhookHeaders>().toExtend<Record<string, string>>();
    expectTypeOf<SignedWebhookHeaders>().toExtend<HeadersInit>();
  });
});
