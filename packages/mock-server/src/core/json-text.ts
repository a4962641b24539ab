/**
 * A JSON body already serialized: a handler that answers the same body again and again (a catalogue page) keeps its
 * text and hands it back, and the engine sends the text instead of serializing the value once more. The type
 * parameter is the body's type, so a handler still answers what its operation documents.
 */
export class JsonText<T> {
  /** The serialized body (`JSON.stringify` of a `T`). */
  readonly text: string;
  /** Phantom: ties the text to the body type it serializes. */
  declare readonly value: T;
  private constructor(text: string) {
    this.text = text;
  }

  /** Serializes `value` once. */
  static of<T>(value: T): JsonText<T> {
    return new JsonText<T>(JSON.stringify(value));
  }
}

/** The text of a body: its kept serialization, or the value serialized now. */
export function jsonBody(body: unknown): string {
  return body instanceof JsonText ? body.text : JSON.stringify(body);
}
