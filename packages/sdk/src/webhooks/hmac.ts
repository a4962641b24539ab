import { fail } from "./errors.ts";

/** Body forms the verifier and signer accept: the raw bytes exactly as received. */
export type RawBody = string | Uint8Array | ArrayBuffer;

interface NodeHmac {
  update(data: string | Uint8Array): NodeHmac;
  digest(encoding: "base64"): string;
}
interface NodeKey {
  readonly type: "secret";
}
interface NodeCrypto {
  createSecretKey(key: Uint8Array): NodeKey;
  createHmac(algorithm: "sha256", key: NodeKey): NodeHmac;
}

// Web Crypto is the portable path (browsers, Deno, Bun, edge workers). Where the host offers Node's crypto without
// an import (`process.getBuiltinModule`, Node ≥ 20.16), we use its synchronous HMAC, which skips Web Crypto's
// asynchronous round trip (docs/webhooks.md). Both produce the same bytes; tests run both paths.
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;

/**
 * The Web Crypto key, named through `crypto.subtle` instead of the DOM's `CryptoKey` so the module type-checks for
 * consumers compiling with Node's types only (`lib: ["ES2022"]`, `types: ["node"]`), where `CryptoKey` is no type.
 */
type WebKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

const encoder = new TextEncoder();
const keys = new Map<string, NodeKey | Promise<WebKey>>();

/** `whsec_<base64>` (prefix optional) → key bytes. */
const decodeSecret = (secret: string): Uint8Array<ArrayBuffer> => {
  let raw = "";
  try {
    raw = atob(secret.startsWith("whsec_") ? secret.slice(6) : secret);
  } catch {}
  if (!raw) fail("invalid_secret", "Webhook secret must be a non-empty base64 string (whsec_...)");
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};

const key = (secret: string): NodeKey | Promise<WebKey> => {
  let k = keys.get(secret);
  if (!k) {
    if (typeof secret !== "string") fail("invalid_secret", "Webhook secret must be a string");
    const bytes = decodeSecret(secret);
    k = nodeCrypto
      ? nodeCrypto.createSecretKey(bytes)
      : crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    // Secrets are few; the bound only protects against callers passing a fresh secret per call.
    if (keys.size > 63) keys.clear();
    keys.set(secret, k);
  }
  return k;
};

export const toBytes = (body: RawBody): Uint8Array | string =>
  body instanceof ArrayBuffer ? new Uint8Array(body) : body;

const subtleHmac = async (k: Promise<WebKey>, prefix: string, body: string | Uint8Array): Promise<string> => {
  let data: Uint8Array<ArrayBuffer>;
  if (typeof body === "string") data = encoder.encode(prefix + body);
  else {
    const head = encoder.encode(prefix);
    data = new Uint8Array(head.length + body.length);
    data.set(head);
    data.set(body, head.length);
  }
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await k, data));
  return btoa(String.fromCharCode(...mac));
};

/** Base64 HMAC-SHA256 of `prefix + body` under `secret`: synchronous on Node, a promise on Web Crypto. */
export const hmac = (secret: string, prefix: string, body: string | Uint8Array): string | Promise<string> => {
  const k = key(secret);
  return k instanceof Promise
    ? subtleHmac(k, prefix, body)
    : (nodeCrypto as NodeCrypto).createHmac("sha256", k).update(prefix).update(body).digest("base64");
};
