/**
 * One page of the feed as bytes, read in small batches of rows: parsing a page whole keeps all its row objects
 * alive at once, which grows the process's memory for good (docs/bi.md, "Memory"). Here one pass over the bytes
 * finds where the `value` array starts and ends and cuts it every `batchBytes` after a row; each batch is parsed
 * only when asked for, so the rows of a batch are garbage before the next is made.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const VALUE_KEY = [QUOTE, ...Array.from("value", (c) => c.charCodeAt(0)), QUOTE];

const utf8 = new TextDecoder();
const isSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** About this many bytes of rows per parsed batch (some 35 rows of the Tickets dataset): the smaller, the less is alive when the young generation is collected. */
export const BATCH_BYTES = 16 * 1024;

export interface PageRows {
  /** The page's members other than `value` (`@odata.count`, `@odata.nextLink`, `@odata.context`…). */
  envelope: Record<string, unknown>;
  /** The rows, parsed batch by batch as the generator is read. */
  batches(): Generator<unknown[], void, undefined>;
}

/** `"value"` and a colon end just before `at` (whitespace allowed around the colon). */
function followsValueKey(body: Uint8Array, at: number): boolean {
  let i = at - 1;
  while (isSpace(body[i])) i--;
  if (body[i] !== COLON) return false;
  i--;
  while (isSpace(body[i])) i--;
  for (let k = VALUE_KEY.length - 1; k >= 0; k--, i--) if (body[i] !== VALUE_KEY[k]) return false;
  return true;
}

/** The index of the quote closing the string whose opening quote is at `at` (or `body.length`). */
function stringEnd(body: Uint8Array, at: number): number {
  let i = at + 1;
  const n = body.length;
  while (i < n) {
    const b = body[i];
    if (b === QUOTE) return i;
    i += b === BACKSLASH ? 2 : 1;
  }
  return n;
}

/**
 * Splits a page's JSON (`{…, "value": [rows], …}`); undefined when the bytes are no such object (unbalanced, no
 * `value` array at the top). The rows themselves are only checked when their batch is parsed.
 */
export function pageRows(body: Uint8Array, batchBytes = BATCH_BYTES): PageRows | undefined {
  let depth = 0;
  let start = -1;
  let end = -1;
  let batchStart = -1;
  const cuts: number[] = [];
  const n = body.length;
  for (let i = 0; i < n; i++) {
    const b = body[i];
    if (b === QUOTE) {
      i = stringEnd(body, i);
      continue;
    }
    if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      depth++;
      if (depth === 2 && b === OPEN_BRACKET && start < 0 && followsValueKey(body, i)) {
        start = i + 1;
        batchStart = start;
      }
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
      if (depth === 2 && start >= 0 && end < 0 && i + 1 - batchStart >= batchBytes) {
        // A row of the value array ended: cut here once the batch is big enough.
        cuts.push(i + 1);
        batchStart = i + 1;
      } else if (depth === 1 && b === CLOSE_BRACKET && start >= 0 && end < 0) end = i;
      if (depth < 0) return undefined;
    }
  }
  if (depth !== 0 || start < 0 || end < 0) return undefined;
  let envelope: unknown;
  try {
    envelope = JSON.parse(utf8.decode(body.subarray(0, start)) + utf8.decode(body.subarray(end)));
  } catch {
    return undefined;
  }
  if (typeof envelope !== "object" || envelope === null || Array.isArray(envelope)) return undefined;
  return {
    envelope: envelope as Record<string, unknown>,
    *batches() {
      let from = start;
      for (const cut of [...cuts, end]) {
        while (from < cut && (isSpace(body[from]) || body[from] === COMMA)) from++;
        if (from < cut) yield JSON.parse(`[${utf8.decode(body.subarray(from, cut))}]`) as unknown[];
        from = cut;
      }
    },
  };
}
