/**
 * A JSON body already serialized: a handler that answers the same body again and again (a catalogue page) keeps its
 * text and hands it back, and the engine sends the text instead of serializing the value once more. The type
 * parameter is the body's type, so a handler still answers what its operation documents. Its UTF-8 bytes are kept
 * with it too, for a transport that writes bytes (the node server): a kept page is not encoded again either.
 */
import type { MockResponse } from "./types.ts";

const utf8 = new TextEncoder();

export class JsonText<T> {
  /** The serialized body (`JSON.stringify` of a `T`). */
  readonly text: string;
  /** Phantom: ties the text to the body type it serializes. */
  declare readonly value: T;
  private encoded: Uint8Array | undefined;
  private constructor(text: string) {
    this.text = text;
  }

  /** Serializes `value` once. */
  static of<T>(value: T): JsonText<T> {
    return new JsonText<T>(JSON.stringify(value));
  }

  /** The text's UTF-8 bytes, encoded on first use and kept as long as the text. */
  get bytes(): Uint8Array {
    this.encoded ??= utf8.encode(this.text);
    return this.encoded;
  }
}

/** The text of a body: its kept serialization, or the value serialized now. */
export function jsonBody(body: unknown): string {
  return body instanceof JsonText ? body.text : JSON.stringify(body);
}

/**
 * A response answered with a kept text: it carries the text's bytes for a transport that writes bytes. Otherwise a
 * plain response (status, headers, body; the kept text is a private field, invisible to copies, JSON and clones).
 */
export class KeptTextResponse implements MockResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  declare drop?: boolean;
  readonly #json: JsonText<unknown>;
  constructor(status: number, headers: Record<string, string>, json: JsonText<unknown>) {
    this.status = status;
    this.headers = headers;
    this.body = json.text;
    this.#json = json;
  }

  /** The body's bytes while it is still the kept text (a later stage may replace or drop it, a HEAD's). */
  keptBytes(): Uint8Array | undefined {
    return this.body === this.#json.text ? this.#json.bytes : undefined;
  }
}

/**
 * The UTF-8 bytes of the response's body when it is still the kept text it was answered with, else undefined: the
 * transport encodes the body itself.
 */
export function keptBytes(response: MockResponse): Uint8Array | undefined {
  return response instanceof KeptTextResponse ? response.keptBytes() : undefined;
}
