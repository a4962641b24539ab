import document from "@entrada/openapi/openapi.json" with { type: "json" };
import { apiUrl } from "../../core/links.ts";
import { msg } from "../../core/messages.ts";
import { type ContextOf, defineSection, type ResultOf } from "../../core/section.ts";
import type { OperationContext } from "../../core/types.ts";
import { detail } from "../shared/details.ts";
import { paginate, queryParam } from "../shared/paging.ts";
import { limitsOf, seedLimits } from "./limits.ts";
import { createDelivery, failPending } from "./queue.ts";
import { newSecret, previousSecretExpiresAt, rotateSecret } from "./secrets.ts";
import {
  initialWebhooksState,
  WEBHOOKS,
  type WebhookDeliveryRecord,
  type WebhookSubscriptionRecord,
  type WebhooksState,
  webhooksSlice,
} from "./state.ts";
import { currentExample } from "./test-event.ts";

export {
  dueDeliveries,
  enqueueWebhookEvent,
  localizedValue,
  RETRY_SCHEDULE_SECONDS,
  recordAttempt,
  retryDelayMs,
} from "./queue.ts";
export type { FetchLike } from "./worker.ts";
export {
  type DeliveryWorker,
  type DeliveryWorkerOptions,
  deliverDue,
  startDeliveryWorker,
} from "./worker.ts";

const DEFAULT_OVERLAP_SECONDS = 86_400;
const LOCAL_HTTP = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?(\/|$)/;

/** The example payload of an event kind from the contract's `webhooks` section (used by the test-event operation). */
function examplePayload(type: string): { type: string; timestamp: string; data: unknown } | null {
  const hooks = (document as { webhooks?: Record<string, unknown> }).webhooks ?? {};
  for (const [name, item] of Object.entries(hooks)) {
    const post = (item as { post?: Record<string, unknown> }).post;
    const content = (
      post?.requestBody as {
        content?: Record<string, { examples?: Record<string, { value?: unknown }>; example?: unknown }>;
      }
    )?.content?.["application/json"];
    const value = (content?.examples ? Object.values(content.examples)[0]?.value : content?.example) as
      | { type?: string; timestamp?: string; data?: unknown }
      | undefined;
    if (value?.type === type || name === type) {
      return { type, timestamp: value?.timestamp ?? new Date(0).toISOString(), data: value?.data ?? {} };
    }
  }
  return null;
}

function subscriptionJson(s: WebhookSubscriptionRecord, now: number) {
  return {
    id: s.id,
    url: s.url,
    description: s.description,
    eventTypes: s.eventTypes,
    enabled: s.enabled,
    disabledReason: s.disabledReason,
    culture: s.culture,
    previousSecretExpiresAt: previousSecretExpiresAt(s, now),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

function deliveryJson(d: WebhookDeliveryRecord) {
  return {
    id: d.id,
    subscriptionId: d.subscriptionId,
    messageId: d.messageId,
    eventType: d.eventType,
    status: d.status,
    test: d.test,
    replayOf: d.replayOf,
    attempts: d.attempts.map((a) => ({ ...a })),
    nextAttemptAt: d.nextAttemptAt === null ? null : new Date(d.nextAttemptAt).toISOString(),
    createdAt: d.createdAt,
    // The exact body sent: built from the contract-typed event when it was queued.
    payload: JSON.parse(d.body),
  };
}

function checkUrl(ctx: OperationContext, url: string): void {
  if (!url.startsWith("https://") && !LOCAL_HTTP.test(url)) {
    const text = detail(ctx, "webhookUrl");
    ctx.problem("unprocessable", text, { errors: [{ pointer: "/body/url", detail: text }] });
  }
}

function ownSubscription(ctx: OperationContext): WebhookSubscriptionRecord {
  const id = ctx.params.subscriptionId as string;
  const s = webhooksSlice(ctx.world).subscriptions[id];
  // Another client's subscription does not exist for this caller.
  if (!s || s.clientId !== (ctx.auth?.clientId ?? ""))
    ctx.problem("not-found", detail(ctx, "noSubscription", { id }));
  return s;
}

function ownDelivery(ctx: OperationContext): WebhookDeliveryRecord {
  const id = ctx.params.deliveryId as string;
  const d = webhooksSlice(ctx.world).deliveries[id];
  if (!d || d.clientId !== (ctx.auth?.clientId ?? ""))
    ctx.problem("not-found", detail(ctx, "noDelivery", { id }));
  return d;
}

function listWebhookSubscriptions(
  ctx: ContextOf<"listWebhookSubscriptions">,
): ResultOf<"listWebhookSubscriptions"> {
  const state = webhooksSlice(ctx.world);
  const now = ctx.clock.now();
  const items = state.subscriptionOrder
    .map((id) => state.subscriptions[id] as WebhookSubscriptionRecord)
    .filter((s) => s.clientId === (ctx.auth?.clientId ?? ""))
    .reverse();
  const page = paginate(ctx, items, { position: (s) => [s.createdAt, s.id], descending: true });
  return {
    status: 200,
    body: { items: page.items.map((s) => subscriptionJson(s, now)), nextCursor: page.nextCursor },
  };
}

function createWebhookSubscription(
  ctx: ContextOf<"createWebhookSubscription">,
): ResultOf<"createWebhookSubscription"> {
  const body = ctx.body;
  checkUrl(ctx, body.url);
  const state = webhooksSlice(ctx.world);
  const cap = limitsOf(state).maxSubscriptions;
  if (state.subscriptionOrder.length >= cap)
    ctx.problem("conflict", ctx.text(msg("webhooks.at-most-subscriptions-per-session-delete", { cap })), {
      limit: cap,
    });
  const now = ctx.clock.now();
  const iso = new Date(now).toISOString();
  const secret = newSecret();
  const enabled = body.enabled ?? true;
  const record: WebhookSubscriptionRecord = {
    id: ctx.id("whk"),
    clientId: ctx.auth?.clientId ?? "",
    url: body.url,
    description: body.description ?? "",
    eventTypes: body.eventTypes,
    enabled,
    disabledReason: enabled ? null : "manual",
    culture: body.culture ?? "de-CH",
    secrets: [{ secret, createdAt: iso, expiresAt: null }],
    createdAt: iso,
    updatedAt: iso,
  };
  state.subscriptions[record.id] = record;
  state.subscriptionOrder.push(record.id);
  return {
    status: 201,
    headers: { location: apiUrl(ctx, `/webhooks/v1/subscriptions/${record.id}`) },
    body: { ...subscriptionJson(record, now), secret },
  };
}

function getWebhookSubscription(
  ctx: ContextOf<"getWebhookSubscription">,
): ResultOf<"getWebhookSubscription"> {
  return { status: 200, body: subscriptionJson(ownSubscription(ctx), ctx.clock.now()) };
}

function updateWebhookSubscription(
  ctx: ContextOf<"updateWebhookSubscription">,
): ResultOf<"updateWebhookSubscription"> {
  const s = ownSubscription(ctx);
  const body = ctx.body;
  if (body.url !== undefined) {
    checkUrl(ctx, body.url);
    s.url = body.url;
  }
  if (body.description !== undefined) s.description = body.description;
  if (body.eventTypes !== undefined) s.eventTypes = body.eventTypes;
  if (body.culture !== undefined) s.culture = body.culture;
  if (body.enabled !== undefined && body.enabled !== s.enabled) {
    s.enabled = body.enabled;
    s.disabledReason = body.enabled ? null : "manual";
  }
  s.updatedAt = new Date(ctx.clock.now()).toISOString();
  return { status: 200, body: subscriptionJson(s, ctx.clock.now()) };
}

function deleteWebhookSubscription(
  ctx: ContextOf<"deleteWebhookSubscription">,
): ResultOf<"deleteWebhookSubscription"> {
  const s = ownSubscription(ctx);
  const state = webhooksSlice(ctx.world);
  failPending(ctx.world, s.id);
  delete state.subscriptions[s.id];
  state.subscriptionOrder = state.subscriptionOrder.filter((id) => id !== s.id);
  return { status: 204 };
}

function rotateWebhookSecret(ctx: ContextOf<"rotateWebhookSecret">): ResultOf<"rotateWebhookSecret"> {
  const s = ownSubscription(ctx);
  const body = ctx.body ?? {};
  const now = ctx.clock.now();
  const secret = rotateSecret(s, now, body.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS);
  return {
    status: 200,
    body: {
      subscriptionId: s.id,
      secret,
      rotatedAt: new Date(now).toISOString(),
      previousSecretExpiresAt: previousSecretExpiresAt(s, now),
    },
  };
}

function sendWebhookTestEvent(ctx: ContextOf<"sendWebhookTestEvent">): ResultOf<"sendWebhookTestEvent"> {
  const s = ownSubscription(ctx);
  const body = ctx.body ?? {};
  const type = body.eventType ?? "ticket.issued";
  const example = examplePayload(type);
  if (!example) ctx.problem("unprocessable", detail(ctx, "noExample", { type }));
  const now = ctx.clock.now();
  const data = currentExample(example.data, now, ctx.id);
  const payload = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
  const delivery = createDelivery(ctx.world, s, { id: ctx.id("msg"), type, body: payload }, now, ctx.id, {
    test: true,
  });
  return {
    status: 202,
    headers: { location: apiUrl(ctx, `/webhooks/v1/deliveries/${delivery.id}`) },
    body: deliveryJson(delivery),
  };
}

function listWebhookDeliveries(ctx: ContextOf<"listWebhookDeliveries">): ResultOf<"listWebhookDeliveries"> {
  const s = ownSubscription(ctx);
  const state = webhooksSlice(ctx.world);
  const status = queryParam(ctx, "status");
  const eventType = queryParam(ctx, "eventType");
  const items = state.deliveryOrder
    .map((id) => state.deliveries[id] as WebhookDeliveryRecord)
    .filter(
      (d) =>
        d.subscriptionId === s.id &&
        (status === undefined || d.status === status) &&
        (eventType === undefined || d.eventType === eventType),
    )
    .reverse();
  const page = paginate(ctx, items, { position: (d) => [d.createdAt, d.id], descending: true });
  return { status: 200, body: { items: page.items.map(deliveryJson), nextCursor: page.nextCursor } };
}

function getWebhookDelivery(ctx: ContextOf<"getWebhookDelivery">): ResultOf<"getWebhookDelivery"> {
  return { status: 200, body: deliveryJson(ownDelivery(ctx)) };
}

function replayWebhookDelivery(ctx: ContextOf<"replayWebhookDelivery">): ResultOf<"replayWebhookDelivery"> {
  const original = ownDelivery(ctx);
  const s = webhooksSlice(ctx.world).subscriptions[original.subscriptionId];
  if (!s) ctx.problem("conflict", detail(ctx, "subscriptionDeleted", { id: original.id }));
  if (!s.enabled) ctx.problem("conflict", detail(ctx, "subscriptionDisabled", { id: s.id }));
  const delivery = createDelivery(
    ctx.world,
    s,
    { id: original.messageId, type: original.eventType, body: original.body },
    ctx.clock.now(),
    ctx.id,
    { test: original.test, replayOf: original.id },
  );
  return {
    status: 202,
    headers: { location: apiUrl(ctx, `/webhooks/v1/deliveries/${delivery.id}`) },
    body: deliveryJson(delivery),
  };
}

/** Webhooks: subscriptions with `whsec_` secrets and rotation, the delivery log, replay and test events. */
const webhooks = defineSection<WebhooksState>({
  name: WEBHOOKS,
  initialState(seed) {
    return initialWebhooksState(seedLimits(seed[WEBHOOKS]));
  },
  retained: (state) => state.deliveryOrder.length + state.subscriptionOrder.length,
  handlers: {
    listWebhookSubscriptions,
    createWebhookSubscription,
    getWebhookSubscription,
    updateWebhookSubscription,
    deleteWebhookSubscription,
    rotateWebhookSecret,
    sendWebhookTestEvent,
    listWebhookDeliveries,
    getWebhookDelivery,
    replayWebhookDelivery,
  },
});

export default webhooks;
