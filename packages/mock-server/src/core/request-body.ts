/** Request bodies: size, media type and charset, UTF-8, JSON or form parsing, then schema validation. */
import type { OperationSpec } from "./document.ts";
import type { FieldError } from "./problems.ts";
import type { Culture } from "./types.ts";
import type { Validator } from "./validation.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A parsed body (`value`), or the problem to answer instead. */
export interface ParsedBody {
  value?: unknown;
  problem?: { slug: string; detail?: string; errors?: FieldError[]; headers?: Record<string, string> };
}

/** Parses and validates a non-empty request body against the operation's documented request body. */
export function parseBody(
  validator: Validator,
  op: OperationSpec,
  contentType: string | undefined,
  bytes: Uint8Array,
  culture: Culture,
): ParsedBody {
  if (!op.body) {
    return {
      problem: {
        slug: "malformed-request",
        detail: `${op.method} ${op.template} takes no request body.`,
        errors: [{ pointer: "/body", detail: "Send no body." }],
      },
    };
  }
  const accepted = [...op.body.media.keys()];
  const [rawMedia = "", ...params] = (contentType ?? "").split(";");
  const media = rawMedia.trim().toLowerCase();
  const charset = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("charset="));
  const isJson = media === "application/json" || media.endsWith("+json");
  if (!op.body.media.has(media) || (charset && !/^charset="?utf-8"?$/.test(charset))) {
    return {
      problem: {
        slug: "unsupported-media-type",
        detail: `Send ${accepted.join(" or ")} (UTF-8); got ${contentType ?? "no Content-Type"}.`,
        errors: [{ pointer: "/header/content-type", detail: `Expected ${accepted.join(" or ")}.` }],
        headers: { [op.method === "PATCH" ? "accept-patch" : "accept-post"]: accepted.join(", ") },
      },
    };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return {
      problem: {
        slug: "malformed-request",
        detail: "The request body is not valid UTF-8.",
        errors: [{ pointer: "/body", detail: "Not valid UTF-8." }],
      },
    };
  }
  let value: unknown;
  if (isJson) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      return {
        problem: {
          slug: "malformed-request",
          detail: `The request body is not valid JSON: ${(error as Error).message}`,
          errors: [{ pointer: "/body", detail: "Not valid JSON." }],
        },
      };
    }
  } else if (media === "application/x-www-form-urlencoded") {
    const form: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(text)) {
      const existing = form[k];
      if (existing === undefined) form[k] = v;
      else if (Array.isArray(existing)) existing.push(v);
      else form[k] = [existing, v];
    }
    value = form;
  } else {
    value = text;
  }
  const errors = validator.body(op, media, value, culture);
  if (errors.length > 0) return { problem: { slug: "validation-error", errors } };
  return { value };
}
