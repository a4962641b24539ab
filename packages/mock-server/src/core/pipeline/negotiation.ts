/** Content negotiation (RFC 9110 §12.5.1): which success media an operation answers, and does Accept allow one. */

import { pickText } from "../culture.ts";
import type { OperationSpec } from "../document.ts";
import { msg } from "../messages.ts";
import { stageProblem } from "../problems.ts";
import type { Exchange, Stage } from "./exchange.ts";

const successMediaCache = new WeakMap<OperationSpec, string[]>();

/** Media types of the operation's documented 2xx responses (JSON when it documents none). */
export function successMedia(op: OperationSpec): string[] {
  let media = successMediaCache.get(op);
  if (!media) {
    const found = new Set<string>();
    for (const [status, types] of op.responses)
      if (status.startsWith("2")) for (const type of types.keys()) found.add(type);
    media = found.size > 0 ? [...found] : ["application/json"];
    successMediaCache.set(op, media);
  }
  return media;
}

/** RFC 9110 §12.5.1: does any range with q > 0 match one of the types? Problems are always allowed through. */
export function acceptsAny(header: string, types: string[]): boolean {
  for (const part of header.split(",")) {
    const [range = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    const [type, subtype] = range.trim().split("/");
    if (!type || !subtype) continue;
    if (type === "*" && subtype === "*") return true;
    for (const candidate of types) {
      const [ct, cs] = candidate.split("/");
      if (type === ct && (subtype === "*" || subtype === cs)) return true;
    }
  }
  return false;
}

/**
 * Accept is only checked when it says something: absent, empty and `*\/*` pass without parsing. True when the
 * client accepts none of the operation's documented success types (→ 406).
 */
export function refusesAll(accept: string | undefined, op: OperationSpec): boolean {
  return accept !== undefined && accept !== "" && accept !== "*/*" && !acceptsAny(accept, successMedia(op));
}

/**
 * OData (Part 1 §8.2.1): a `$format` query option, when present, takes precedence over `Accept`; the operation
 * judges its value (the BI feed: JSON, or 501). Only for operations that declare `$format`.
 */
function formatOverridesAccept(ex: Exchange): boolean {
  return (
    ex.target.search !== "" &&
    ex.url.searchParams.has("$format") &&
    ex.op.params.some((p) => p.in === "query" && p.name === "$format")
  );
}

/** Throws the 406 when the client accepts none of the operation's documented success types. */
export function notAcceptable(): Stage {
  return (ex) => {
    if (ex.route?.oauth) return;
    const { op } = ex;
    if (!refusesAll(ex.headers.accept, op) || formatOverridesAccept(ex)) return;
    const media = successMedia(op);
    // "a or b" in the culture's words (Intl knows every culture's disjunction; no text per culture in code).
    const types = new Intl.ListFormat(ex.culture, { type: "disjunction" }).format(media);
    throw stageProblem("not-acceptable", {
      detail: pickText(
        msg("core.pipeline.negotiation.this-operation-answers-the-accept-header", { types }),
        ex.culture,
      ),
      errors: [{ pointer: "/header/accept", detail: `Accept ${media.join(", ")}.` }],
    });
  };
}
