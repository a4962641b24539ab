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

/** Responses answered with a kept text, by the response (held weakly: gone with the response). */
const keptBodies = new WeakMap<MockResponse, JsonText<unknown>>();

/** Notes that `response` carries the text of `json` as its body. */
export function noteKeptBody(response: MockResponse, json: JsonText<unknown>): void {
  keptBodies.set(response, json);
}

/**
 * The UTF-8 bytes of the response's body when it is still the kept text it was answered with (a later stage may
 * have replaced or dropped the body, a HEAD's), else undefined: the transport encodes the body itself.
 */
export function keptBytes(response: MockResponse): Uint8Array | undefined {
  const json = keptBodies.get(response);
  return json !== undefined && json.text === response.body ? json.bytes : undefined;
}
