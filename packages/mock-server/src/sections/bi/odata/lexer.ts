import { badRequest } from "./errors.ts";

/** Tokens of the OData URL expression subset we parse ($filter, $orderby). */
export type Token =
  | { kind: "string"; value: string; pos: number }
  | { kind: "number"; value: number; text: string; pos: number }
  | { kind: "date"; value: string; pos: number }
  | { kind: "datetime"; value: string; pos: number }
  | { kind: "ident"; value: string; pos: number }
  | { kind: "lparen" | "rparen" | "comma" | "star" | "slash" | "colon" | "eof"; pos: number };

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,12})?)?(?:Z|[+-]\d{2}:\d{2})/i;
const DATE = /^\d{4}-\d{2}-\d{2}(?![\d:T])/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_.]*/;

/**
 * Split an expression into tokens. Strings use single quotes with `''` as the escaped quote (ABNF `SQUOTE-in-string`).
 * @example tokenize("name eq 'O''Brien'") // ident, ident, string "O'Brien", eof
 */
export function tokenize(input: string, option: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i] as string;
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") {
      i++;
      continue;
    }
    const rest = input.slice(i);
    if (ch === "'") {
      let value = "";
      let j = i + 1;
      for (;;) {
        if (j >= input.length)
          throw badRequest("unterminatedString", { pos: i, option }, option, "InvalidFilter");
        const c = input[j] as string;
        if (c === "'") {
          if (input[j + 1] === "'") {
            value += "'";
            j += 2;
            continue;
          }
          break;
        }
        value += c;
        j++;
      }
      tokens.push({ kind: "string", value, pos: i });
      i = j + 1;
      continue;
    }
    const simple = {
      "(": "lparen",
      ")": "rparen",
      ",": "comma",
      "*": "star",
      "/": "slash",
      ":": "colon",
    } as const;
    if (ch in simple) {
      tokens.push({ kind: simple[ch as keyof typeof simple], pos: i });
      i++;
      continue;
    }
    const dt = DATETIME.exec(rest);
    if (dt) {
      const text = dt[0];
      if (!isValidDateTime(text))
        throw badRequest("invalidLiteral", { text, option }, option, "InvalidFilter");
      tokens.push({ kind: "datetime", value: text, pos: i });
      i += text.length;
      continue;
    }
    const d = DATE.exec(rest);
    if (d) {
      const text = d[0];
      if (!isValidDate(text)) throw badRequest("invalidLiteral", { text, option }, option, "InvalidFilter");
      tokens.push({ kind: "date", value: text, pos: i });
      i += text.length;
      continue;
    }
    const n = NUMBER.exec(rest);
    if (n) {
      const text = n[0];
      tokens.push({ kind: "number", value: Number(text), text, pos: i });
      i += text.length;
      continue;
    }
    const id = IDENT.exec(rest);
    if (id) {
      tokens.push({ kind: "ident", value: id[0], pos: i });
      i += id[0].length;
      continue;
    }
    throw badRequest("unexpectedChar", { char: ch, pos: i, option }, option, "InvalidFilter");
  }
  tokens.push({ kind: "eof", pos: input.length });
  return tokens;
}

/**
 * A date-time whose every field is in range: `Date.parse` alone takes `2026-02-30T00:00:00Z` as 2 March, and a
 * filter with an impossible day would then answer for another one.
 */
function isValidDateTime(text: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?[^Zz+-]*(?:[Zz]|[+-](\d{2}):(\d{2}))$/.exec(
    text,
  );
  if (!m || !isValidDate(m[1] as string)) return false;
  const [hour, minute, second, offsetHours, offsetMinutes] = [m[2], m[3], m[4], m[5], m[6]].map(Number);
  return (
    (hour as number) < 24 &&
    (minute as number) < 60 &&
    !((second as number) >= 60) &&
    !((offsetHours as number) > 23) &&
    !((offsetMinutes as number) >= 60) &&
    !Number.isNaN(Date.parse(text))
  );
}

function isValidDate(text: string): boolean {
  const [y, m, d] = text.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
