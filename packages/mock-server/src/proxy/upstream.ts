/**
 * The upstream leg of the proxy: sends the client's request on unchanged (minus hop-by-hop headers; `Host` is the
 * upstream's) with undici, and hands back the answer as a stream. The body is not decoded: what the client gets
 * is byte for byte what the upstream sent.
 */
import type { Readable } from "node:stream";
import { Agent, request } from "undici";

/** Hop-by-hop headers (RFC 9110 §7.6.1) and what the transport sets itself. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
]);

export interface UpstreamAnswer {
  status: number;
  /** Lower-case names; repeated headers as arrays (set-cookie). */
  headers: Record<string, string | string[]>;
  body: Readable;
}

/** The upstream could not be reached or did not answer (DNS, refused, reset, timeout). */
export class UpstreamUnreachable extends Error {
  override readonly name = "UpstreamUnreachable";
  constructor(
    readonly upstream: string,
    readonly reason: string,
  ) {
    super(`The upstream ${upstream} did not answer: ${reason}`);
  }
}

export function withoutHopByHop(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  const listed = String(headers.connection ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(lower) || listed.includes(lower)) continue;
    out[lower] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export class Upstream {
  readonly origin: string;
  private readonly basePath: string;
  private readonly dispatcher: Agent;

  constructor(
    readonly url: string,
    options: { connectTimeoutMs?: number; headersTimeoutMs?: number } = {},
  ) {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
      throw new TypeError(`--upstream must be an http(s) URL, got ${url}`);
    this.origin = parsed.origin;
    this.basePath = parsed.pathname.replace(/\/+$/, "");
    this.dispatcher = new Agent({
      connect: { timeout: options.connectTimeoutMs ?? 5_000 },
      headersTimeout: options.headersTimeoutMs ?? 60_000,
      bodyTimeout: 60_000,
      connections: 64,
    });
  }

  /** Sends one request; `pathWithQuery` is below the proxy's root. Rejects with `UpstreamUnreachable`. */
  async send(
    method: string,
    pathWithQuery: string,
    headers: Record<string, string | string[] | undefined>,
    body: Uint8Array | null,
  ): Promise<UpstreamAnswer> {
    try {
      const answer = await request(`${this.origin}${this.basePath}${pathWithQuery}`, {
        method: method as "GET",
        headers: withoutHopByHop(headers),
        body: body ?? null,
        dispatcher: this.dispatcher,
      });
      return {
        status: answer.statusCode,
        headers: answer.headers as Record<string, string | string[]>,
        body: answer.body,
      };
    } catch (error) {
      const cause = error as { code?: string; message?: string };
      throw new UpstreamUnreachable(this.url, cause.code ?? cause.message ?? String(error));
    }
  }

  /** Ends every connection to the upstream, also those of bodies still being relayed. */
  close(): Promise<void> {
    return this.dispatcher.destroy();
  }
}
