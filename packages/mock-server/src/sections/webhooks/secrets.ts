import type { WebhookSubscriptionRecord } from "./state.ts";

/** A new `whsec_` secret: 24 random bytes, base64 (Standard Webhooks). Web Crypto, so it runs anywhere. */
export function newSecret(): string {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/** Secrets that sign at `now`, newest first: the current one plus a rotated one still inside its overlap. */
export function activeSecrets(subscription: WebhookSubscriptionRecord, now: number): string[] {
  return subscription.secrets
    .filter((s) => s.expiresAt === null || Date.parse(s.expiresAt) > now)
    .map((s) => s.secret);
}

/** End of a running rotation overlap, or null. */
export function previousSecretExpiresAt(subscription: WebhookSubscriptionRecord, now: number): string | null {
  const previous = subscription.secrets[1];
  return previous?.expiresAt && Date.parse(previous.expiresAt) > now ? previous.expiresAt : null;
}

/**
 * Rotate: the new secret signs from now on; the current one keeps signing for `overlapSeconds` (0 revokes it).
 * A rotation during an overlap drops the oldest secret at once, so at most two are ever valid.
 */
export function rotateSecret(
  subscription: WebhookSubscriptionRecord,
  now: number,
  overlapSeconds: number,
  secret = newSecret(),
): string {
  const iso = new Date(now).toISOString();
  const current = subscription.secrets[0];
  subscription.secrets = [{ secret, createdAt: iso, expiresAt: null }];
  if (current && overlapSeconds > 0) {
    subscription.secrets.push({ ...current, expiresAt: new Date(now + overlapSeconds * 1000).toISOString() });
  }
  subscription.updatedAt = iso;
  return secret;
}
