/**
 * Creates a webhook subscription pointing at a receiver and prints its signing secret (shown only once).
 *
 *   ENTRADA_WEBHOOK_URL=https://hooks.example.com/webhooks/entrada pnpm subscribe
 */

import { type components, createClient, type EntradaClient } from "@entrada/sdk";
import { apiFromEnv } from "./options.ts";

export interface Subscription {
  id: string;
  /** `whsec_…`: store it in your secret manager now; the API never shows it again (rotate to get a new one). */
  secret: string;
}

export async function createSubscription(
  client: EntradaClient,
  /** `eventTypes`: kinds such as `["cart.completed", "ticket.issued"]`, or `["*"]` for every kind. */
  input: { url: string; eventTypes: components["schemas"]["EventTypeSelection"]; culture: string },
): Promise<Subscription> {
  const { data } = await client.webhooks.createWebhookSubscription.orThrow({
    body: {
      url: input.url,
      description: "Example receiver (examples/webhook-receiver)",
      eventTypes: input.eventTypes,
      enabled: true,
      culture: input.culture,
    },
  });
  return { id: data.id, secret: data.secret };
}

if (import.meta.main) {
  const api = apiFromEnv();
  const url = process.env.ENTRADA_WEBHOOK_URL || "http://127.0.0.1:3000/webhooks/entrada";
  try {
    const client = createClient({ ...api, scope: "Shop" });
    const subscription = await createSubscription(client, { url, eventTypes: ["*"], culture: "en-GB" });
    console.log(`Subscription ${subscription.id} → ${url}`);
    console.log(`export ENTRADA_WEBHOOK_SECRET=${subscription.secret}`);
    if (process.argv.includes("--test")) {
      await client.webhooks.sendWebhookTestEvent.orThrow({
        params: { path: { subscriptionId: subscription.id } },
        body: { eventType: "ticket.issued" },
      });
      console.log("Test event ticket.issued queued.");
    }
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
}
