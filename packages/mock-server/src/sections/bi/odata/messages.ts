import { formatMessage, hasMessage } from "../../../core/messages.ts";
import type { Culture } from "../../../core/types.ts";

/**
 * Localized OData error messages: the `bi.odata.<key>` texts of the culture message files (src/messages);
 * `{name}` placeholders are filled from the error's params.
 */
const KEYS = [
  "syntax",
  "value",
  "end",
  "endOfInput",
  "unterminatedString",
  "unexpectedChar",
  "invalidLiteral",
  "typedLiteral",
  "unknownProperty",
  "didYouMean",
  "unknownFunction",
  "argCount",
  "argType",
  "compareTypes",
  "notBoolean",
  "empty",
  "repeated",
  "notNonNegativeInt",
  "countValue",
  "unknownOption",
  "unsupportedOption",
  "unsupportedFunction",
  "unsupportedOperator",
  "unsupportedPath",
  "unsupportedFormat",
  "skipTokenInvalid",
  "skipTokenMismatch",
  "maxVersion",
  "notFound",
  "keyPredicate",
  "singleEntityOption",
  "entityNotFound",
  "applyTransformation",
  "applyForm",
  "applyTransformationForm",
  "applyAggregateForm",
  "applyComputeForm",
  "applyGroupbyForm",
  "applyMethod",
  "applyMethodType",
  "applyAlias",
  "applyAfterGrouping",
  "applyNeedsGrouping",
  "applyGroupLimit",
] as const;

export type MessageKey = (typeof KEYS)[number];
export type MessageParams = Record<string, string | number>;

const PREFIX = "bi.odata.";

/** Params whose value is itself a message key (`{expected}` = "@value") are translated too; a missing one is empty. */
export function message(key: MessageKey, params: MessageParams, culture: Culture): string {
  const nested = (v: unknown) =>
    typeof v === "string" && v.startsWith("@") && hasMessage(PREFIX + v.slice(1));
  const plain: Record<string, string | number> = {};
  for (const [name, v] of Object.entries(params)) if (!nested(v)) plain[name] = v;
  const resolved: Record<string, string | number> = { ...plain };
  for (const [name, v] of Object.entries(params))
    if (nested(v)) resolved[name] = formatMessage(culture, PREFIX + String(v).slice(1), plain, "");
  return formatMessage(culture, PREFIX + key, resolved, "");
}
