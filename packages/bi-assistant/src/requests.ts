import { type BiEntitySet, biEntitySets, formatLiteral, odata } from "@entrada/sdk/bi";
import { ArgumentProblem, kindOf } from "./arguments.ts";

/**
 * The OData requests the tools run, built from their arguments: `$filter`/`$select`/`$orderby`/`$top` rows through
 * the SDK's query builder, aggregations as `$apply` (OData Data Aggregation: `filter`, `compute` for time buckets,
 * `groupby`, `aggregate`). Property names are checked against the datasets first, so a typo comes back as a fix-it
 * message before anything is sent; expressions (`filter`) go to the feed as written and its refusal names the part.
 */

export type Method = "count" | "sum" | "average" | "min" | "max" | "countdistinct";
export type BucketUnit = "day" | "hour" | "month" | "year";

export interface AggregateSpec {
  dataset: BiEntitySet;
  filter?: string;
  groupBy?: string[];
  aggregates?: { method: Method; property?: string; as?: string }[];
  timeBucket?: { property: string; unit: BucketUnit };
  /**
   * Further buckets grouped by, after `timeBucket`'s: `{expr: "hour(ScannedAt)", as: "Hour"}` (the questions use
   * it to group by UTC day and hour, then read each group in a time zone).
   */
  buckets?: { expr: string; as: string }[];
  orderBy?: string[];
  top?: number;
}

const NUMERIC = new Set(["int", "decimal"]);
const ALIAS = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The columns a time bucket adds (`day` → `Day`, `month` → `Year`, `Month`) and their `compute` items. */
function bucket(
  spec: AggregateSpec["timeBucket"],
  dataset: BiEntitySet,
): { columns: string[]; compute: string[] } {
  if (!spec) return { columns: [], compute: [] };
  const kind = kindOf(dataset, spec.property, "timeBucket/property");
  if (kind !== "datetime")
    throw new ArgumentProblem(
      `\`timeBucket/property\` must be a date-time property; \`${spec.property}\` is ${kind}.`,
    );
  const p = spec.property;
  switch (spec.unit) {
    case "day":
      return { columns: ["Day"], compute: [`date(${p}) as Day`] };
    case "hour":
      return { columns: ["Hour"], compute: [`hour(${p}) as Hour`] };
    case "month":
      return { columns: ["Year", "Month"], compute: [`year(${p}) as Year`, `month(${p}) as Month`] };
    case "year":
      return { columns: ["Year"], compute: [`year(${p}) as Year`] };
  }
}

/**
 * The `$apply` text of an aggregation and the columns of its result rows.
 * @example applyOf({dataset: "Tickets", groupBy: ["EventId"], aggregates: [{method: "count", as: "Tickets"}]})
 * // { apply: "groupby((EventId),aggregate($count as Tickets))", columns: ["EventId", "Tickets"] }
 */
export function applyOf(spec: AggregateSpec): { apply: string; columns: string[] } {
  const { dataset } = spec;
  const groups = (spec.groupBy ?? []).map((p, i) => {
    kindOf(dataset, p, `groupBy/${i}`);
    return p;
  });
  const time = bucket(spec.timeBucket, dataset);
  for (const b of spec.buckets ?? []) {
    time.columns.push(b.as);
    time.compute.push(`${b.expr} as ${b.as}`);
  }
  const taken = new Set([...groups, ...time.columns]);
  const aggregates = (spec.aggregates ?? []).map((a, i) => {
    if (a.method === "count") {
      const alias = a.as ?? "Count";
      return { text: `$count as ${alias}`, alias, at: i };
    }
    if (!a.property) throw new ArgumentProblem(`\`aggregates/${i}/property\` is required for ${a.method}.`);
    const kind = kindOf(dataset, a.property, `aggregates/${i}/property`);
    if ((a.method === "sum" || a.method === "average") && !NUMERIC.has(kind))
      throw new ArgumentProblem(
        `\`aggregates/${i}\`: ${a.method} needs a number; \`${a.property}\` is ${kind}. Use count, countdistinct, min or max.`,
      );
    const alias = a.as ?? `${a.property}${capital(a.method)}`;
    return { text: `${a.property} with ${a.method} as ${alias}`, alias, at: i };
  });
  for (const a of aggregates) {
    if (!ALIAS.test(a.alias))
      throw new ArgumentProblem(
        `\`aggregates/${a.at}/as\` must be a name of letters, digits and _: \`${a.alias}\`.`,
      );
    if (taken.has(a.alias) || Object.hasOwn(biEntitySets[dataset], a.alias))
      throw new ArgumentProblem(
        `\`aggregates/${a.at}/as\`: the name \`${a.alias}\` is taken; choose another.`,
      );
    taken.add(a.alias);
  }
  const by = [...groups, ...time.columns];
  if (by.length === 0 && aggregates.length === 0)
    throw new ArgumentProblem("Give `groupBy`, `timeBucket` or `aggregates` (at least one of them).");
  const steps: string[] = [];
  if (spec.filter?.trim()) steps.push(`filter(${spec.filter.trim()})`);
  if (time.compute.length) steps.push(`compute(${time.compute.join(",")})`);
  const aggregate = aggregates.length ? `aggregate(${aggregates.map((a) => a.text).join(",")})` : "";
  steps.push(by.length ? `groupby((${by.join(",")})${aggregate ? `,${aggregate}` : ""})` : aggregate);
  return { apply: steps.join("/"), columns: [...by, ...aggregates.map((a) => a.alias)] };
}

/** `Name` or `Name desc` / `Name asc` among `columns`, else an ArgumentProblem. */
function orderItem(item: string, columns: readonly string[], at: string): string {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s+(asc|desc))?\s*$/i.exec(item);
  if (!m || !columns.includes(m[1] as string))
    throw new ArgumentProblem(
      `\`${at}\` must be a column of the answer, optionally followed by asc or desc (e.g. "${columns.at(-1)} desc"); columns: ${columns.join(", ")}.`,
    );
  return m[2]?.toLowerCase() === "desc" ? `${m[1]} desc` : (m[1] as string);
}

/** The feed URL of an aggregation. */
export function aggregateUrl(
  feedRoot: URL,
  spec: AggregateSpec,
): { url: string; apply: string; columns: string[] } {
  const { apply, columns } = applyOf(spec);
  const params = [`$apply=${encodeURIComponent(apply)}`];
  if (spec.orderBy?.length)
    params.push(
      `$orderby=${encodeURIComponent(spec.orderBy.map((o, i) => orderItem(o, columns, `orderBy/${i}`)).join(","))}`,
    );
  if (spec.top !== undefined) params.push(`$top=${spec.top}`);
  return { url: `${feedRoot.href}/${spec.dataset}?${params.join("&")}`, apply, columns };
}

export interface RowsSpec {
  dataset: BiEntitySet;
  filter?: string;
  select?: string[];
  orderBy?: string[];
  top?: number;
}

/** The feed URL of a rows query (with `$count=true`, so the first page says how many rows match). */
export function rowsUrl(feedRoot: URL, spec: RowsSpec): string {
  const { dataset } = spec;
  let q = odata(dataset).count();
  if (spec.filter?.trim()) q = q.filter(spec.filter.trim());
  for (const [i, p] of (spec.select ?? []).entries()) kindOf(dataset, p, `select/${i}`);
  if (spec.select?.length) q = q.select(...(spec.select as never[])) as unknown as typeof q;
  (spec.orderBy ?? []).forEach((o, i) => {
    const m = /^\s*(\S+)(?:\s+(asc|desc))?\s*$/i.exec(o);
    kindOf(dataset, m?.[1] ?? o, `orderBy/${i}`);
    q = q.orderBy(m?.[1] as never, (m?.[2]?.toLowerCase() ?? "asc") as "asc" | "desc");
  });
  if (spec.top !== undefined) q = q.top(spec.top);
  return q.url(feedRoot).href;
}

/** A date-time literal of an instant (epoch ms). */
export function instant(ms: number): string {
  return formatLiteral("datetime", new Date(ms).toISOString());
}

/** `Property eq 'value'` with the value escaped as an OData string. */
export function equals(property: string, value: string): string {
  return `${property} eq ${formatLiteral("string", value)}`;
}
