import type { BiFeed } from "@entrada/sdk/bi";
import { type Budget, type Gathered, gather } from "./feed.ts";
import type { Words } from "./words.ts";

export type Obj = Record<string, unknown>;

/** What a tool gets: the feed with the caller's token, the clock and the answer's budget. */
export interface ToolContext {
  feed: BiFeed;
  /** The clock budgets are measured on. */
  now(): number;
  /** The data's "now" (epoch ms): what "today" and "last week" mean; the mock's clock when mounted there. */
  today(): number;
  /** The caller's language (`Accept-Language`): column titles and how figures are written. */
  words: Words;
  /** A fresh budget for this answer (time limit and row cap). */
  budget(): Budget;
}

export interface ToolAnswer {
  /** `structuredContent`, fitting the tool's output schema. */
  structured: Obj;
  /** The same answer for a person: Markdown. */
  text: string;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: Obj;
  outputSchema: Obj;
  /** Arguments of a valid call, quoted when a call's arguments do not fit. */
  example: Obj;
  run(ctx: ToolContext, args: Obj): Promise<ToolAnswer>;
}

/** Every page of an aggregation's answer, within the budget. */
export function gatherAll<Row>(ctx: ToolContext, url: string): Promise<Gathered<Row>> {
  return gather<Row>(ctx.feed, url, ctx.budget(), ctx.now);
}

/**
 * A Markdown table of rows (at most `limit` shown; the structured answer has them all), headed by `titles` (the
 * readable, translated title of each column) where given, else by the column names.
 */
export function table(
  rows: Obj[],
  columns: string[],
  limit = 50,
  titles: Readonly<Record<string, string>> = {},
): string {
  if (rows.length === 0) return "_No rows._";
  const cell = (v: unknown) => (v === null || v === undefined ? "—" : String(v).replace(/\|/g, "\\|"));
  const lines = [
    `| ${columns.map((c) => titles[c] ?? c).join(" | ")} |`,
    `| ${columns.map(() => "---").join(" | ")} |`,
    ...rows.slice(0, limit).map((r) => `| ${columns.map((c) => cell(r[c])).join(" | ")} |`),
  ];
  if (rows.length > limit) lines.push("", `…and ${rows.length - limit} more rows in the structured answer.`);
  return lines.join("\n");
}

/** The closing lines every answer carries: the request to re-run, and the note when there is one. */
export function footer(requests: readonly string[], note: string | null): string {
  return [
    "",
    `OData request (re-run it with the same bearer token): ${requests[0] ?? ""}`,
    ...(requests.length > 1 ? [`(${requests.length} pages fetched.)`] : []),
    ...(note ? ["", `Note: ${note}`] : []),
  ].join("\n");
}

/** Schema of the `request`/`requests`/`note` fields every answer has. */
export const PROVENANCE = {
  request: {
    type: "string",
    description: "The OData request that produced the answer (absolute URL), to re-run.",
  },
  requests: {
    type: "array",
    items: { type: "string" },
    description: "Every page fetched, in order (the first is `request`).",
  },
  note: {
    type: ["string", "null"],
    description: "Why the answer is partial or how to read it; null when none.",
  },
} as const;

export const DATASET_SCHEMA = {
  type: "string",
  enum: ["Orders", "Tickets", "Payments", "Entrances"],
  description: "One of the four datasets of the BI feed.",
} as const;

export const DAY_SCHEMA = {
  type: "string",
  pattern: "^\\d{4}-\\d{2}-\\d{2}$",
  description: "A calendar day, YYYY-MM-DD (in the answer's time zone).",
} as const;
