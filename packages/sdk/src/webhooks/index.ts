export type { WebhookDeduper, WebhookDeduperOptions, WebhookDedupeStore } from "./dedupe.ts";
export { createWebhookDeduper, memoryDedupeStore } from "./dedupe.ts";
export type { WebhookVerificationErrorCode } from "./errors.ts";
export { WebhookVerificationError } from "./errors.ts";
export type { WebhookEvent, WebhookEventEnvelope, WebhookEventOf, WebhookEventType } from "./events.ts";
export type { RawBody } from "./hmac.ts";
export type {
  InboxAnswer,
  InboxMessage,
  InboxRetry,
  InboxRunOptions,
  InboxStats,
  InboxTracing,
  NodeRequestLike,
  NodeResponseLike,
  WebhookInbox,
  WebhookInboxOptions,
} from "./inbox.ts";
export { createWebhookInbox } from "./inbox.ts";
export type { InboxClaim, InboxCounts, InboxRecord, InboxStatus, InboxStore } from "./inbox-store.ts";
export type { SignedWebhookHeaders, SignWebhookInput } from "./sign.ts";
export { signWebhook } from "./sign.ts";
export type { VerifyWebhookOptions, WebhookHeaders } from "./verify.ts";
export { verifyWebhook } from "./verify.ts";
