/**
 * How a section method reads a 2xx body into `data`, for operations whose answer is not JSON (JSON, the default, is
 * `invoke`'s own). The generated sections name the one an operation needs, so an entry carries only the readers of
 * the operations it has.
 */

import { isJsonContentType, type Parsed, parseSuccessJson } from "./response.ts";

export interface ResponseBody {
  /** `Accept` sent unless the call's headers ask otherwise (an operation with several media types). */
  accept?: string;
  /** Reads the body of a response, 2xx or not, within the attempt's timeout. */
  read(response: Response): Promise<unknown>;
  /** The data of a 2xx body as read, or why it cannot be used. */
  data(body: unknown, contentType: string | null): Parsed;
}

/** A body read as text (every error body, and the JSON default's). */
export const readText = (response: Response) => response.text();
const asIs = (body: unknown): Parsed => ({ ok: true, value: body });

/** Text and XML (`text/*`, `*\/xml`): the text. */
export const textBody: ResponseBody = { read: readText, data: asIs };

/** Binary (a PDF, an image): a 2xx body as a Blob (an error body as text). */
export const blobBody: ResponseBody = {
  read: (response) => (response.ok ? response.blob() : response.text()),
  data: asIs,
};

/** JSON or another type (OData `$metadata`: JSON or XML): JSON is asked for, anything else is the text. */
export const mixedBody: ResponseBody = {
  accept: "application/json",
  read: readText,
  data: (body, contentType) =>
    isJsonContentType(contentType) ? parseSuccessJson(body as string, contentType) : asIs(body),
};
