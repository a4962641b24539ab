import { type EntradaError, isErrorKind } from "@entrada/sdk/shop";

/** What failed, as a host would log it from `onError`: a problem's slug, or the SDK error's kind. */
export const failure = (error: EntradaError): string =>
  isErrorKind(error, "problem") ? error.slug : error.kind;
