/**
 * How a section method reads a 2xx body that is not JSON (JSON, the default, is `invoke`'s own): the body as read is
 * the data. The generated sections name the reader an operation needs, so an entry carries only the readers of the
 * operations it has.
 */

export interface ResponseBody {
  /**
   * Asked for unless the call's headers ask otherwise, where the operation has several media types (OData
   * `$metadata`: JSON or XML); an answer of this type is parsed.
   */
  accept?: "application/json";
  /** Reads the body of a response, 2xx or not, within the attempt's timeout. */
  read(response: Response): Promise<unknown>;
}

/** A body read as text (every error body, and the JSON default's). */
export const readText = (response: Response) => response.text();

/** Text and XML (`text/*`, `*\/xml`): the text. */
export const textBody: ResponseBody = { read: readText };

/** Binary (a PDF, an image): a 2xx body as a Blob (an error body as text). */
export const blobBody: ResponseBody = {
  read: (response) => (response.ok ? response.blob() : response.text()),
};

/** JSON or another type (OData `$metadata`: JSON or XML): JSON is asked for and parsed, anything else is the text. */
export const mixedBody: ResponseBody = { accept: "application/json", read: readText };
