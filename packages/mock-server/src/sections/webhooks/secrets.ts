import type { EndpointSecret, WebhookEndpoint } from "./state.ts";

/** A new `whsec_` secret: 24 random bytes, base64 (Standard Webhooks). Uses Web Crypto, so it runs anywhere. */
export function newSecret(): string {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/** Secrets that sign a delivery at `now`: the current one plus a rotated one still inside its overlap. */
export function activeSecrets(endpoint: WebhookEndpoint, now: number): string[] {
  return endpoint.secrets
    .filter((s: EndpointSecret) => s.expiresAt === null || Date.parse(s.expiresAt) > now)
    .map((s) => s.secret);
}

/**
 * Rotate: the new secret signs from now on; the previous one keeps signing (a second `v1,` signature) for
 * `overlapSeconds`, so receivers can switch without dropping deliveries. Older secrets are dropped.
 */
export function rotateSecret(
  endpoint: WebhookEndpoint,
  now: number,
  overlapSeconds: number,
  secret = newSecret(),
): void {
  const iso = new Date(now).toISOString();
  const previous = endpoint.secrets[0];
  const kept: EndpointSecret[] = [];
  if (previous && overlapSeconds > 0) {
    kept.push({ ...previous, expiresAt: new Date(now + overlapSeconds * 1000).toISOString() });
  }
  endpoint.secrets = [{ secret, createdAt: iso, expiresAt: null }, ...kept];
  endpoint.updatedAt = iso;
}
