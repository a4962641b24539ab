import type { BiEntitySet } from "@entrada/sdk/bi";
import { ArgumentProblem } from "./arguments.ts";
import { type AggregateSpec, aggregateUrl, rowsUrl } from "./requests.ts";
import { DATASET_SCHEMA, footer, gatherAll, type Obj, PROVENANCE, type Tool, table } from "./tool.ts";

const CORE = "@Org.OData.Core.V1.Description";

/** The datasets of the model as `$metadata` (CSDL JSON) describes them. */
function datasetsOf(csdl: Obj): { name: string; type: string; description: string; entityType: Obj }[] {
  const container = String(csdl.$EntityContainer);
  const namespace = container.slice(0, container.lastIndexOf("."));
  const schema = (csdl[namespace] ?? {}) as Record<string, Obj>;
  const sets = schema[container.slice(namespace.length + 1)] ?? {};
  return Object.entries(sets)
    .filter(([name, set]) => !name.startsWith("$") && typeof set === "object" && set !== null)
    .map(([name, set]) => {
      const typeName = String((set as Obj).$Type).slice(namespace.length + 1);
      return {
        name,
        type: typeName,
        description: String((set as Obj)[CORE] ?? ""),
        entityType: (schema[typeName] ?? {}) as Obj,
      };
    });
}

const metadataUrl = (root: URL) => `${root.href}/$metadata?$format=json`;

const listDatasets: Tool = {
  name: "list_datasets",
  title: "List the BI datasets",
  description:
    "The four datasets of your BI feed (Orders, Tickets, Payments, Entrances) with their key and what one row is, from the feed's $metadata.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  outputSchema: {
    type: "object",
    required: ["datasets", "request"],
    properties: {
      datasets: {
        type: "array",
        items: {
          type: "object",
          required: ["name", "key", "description", "propertyCount"],
          properties: {
            name: { type: "string" },
            key: { type: "string" },
            description: { type: "string" },
            propertyCount: { type: "integer" },
          },
        },
      },
      request: PROVENANCE.request,
    },
  },
  example: {},
  async run(ctx) {
    const csdl = await ctx.feed.metadata();
    const datasets = datasetsOf(csdl).map((d) => ({
      name: d.name,
      key: String((d.entityType.$Key as string[] | undefined)?.[0] ?? ""),
      description: d.description,
      propertyCount: Object.keys(d.entityType).filter((k) => !k.startsWith("$") && !k.startsWith("@")).length,
    }));
    const request = metadataUrl(ctx.feed.root);
    return {
      structured: { datasets, request },
      text: [table(datasets, ["name", "key", "propertyCount", "description"]), footer([request], null)].join(
        "\n",
      ),
    };
  },
};

const describeDataset: Tool = {
  name: "describe_dataset",
  title: "Describe a BI dataset",
  description:
    "The properties of one dataset with their OData type, whether they can be null and what they mean, from the feed's $metadata: what you can filter, group and aggregate by.",
  inputSchema: {
    type: "object",
    required: ["dataset"],
    properties: { dataset: DATASET_SCHEMA },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    required: ["name", "key", "description", "properties", "request"],
    properties: {
      name: { type: "string" },
      key: { type: "string" },
      description: { type: "string" },
      properties: {
        type: "array",
        items: {
          type: "object",
          required: ["name", "type", "nullable", "description"],
          properties: {
            name: { type: "string" },
            type: { type: "string" },
            nullable: { type: "boolean" },
            description: { type: "string" },
          },
        },
      },
      request: PROVENANCE.request,
    },
  },
  example: { dataset: "Tickets" },
  async run(ctx, args) {
    const csdl = await ctx.feed.metadata();
    const set = datasetsOf(csdl).find((d) => d.name === args.dataset);
    if (!set) throw new ArgumentProblem(`The feed has no dataset \`${String(args.dataset)}\`.`);
    const properties = Object.entries(set.entityType)
      .filter(([k]) => !k.startsWith("$") && !k.startsWith("@"))
      .map(([name, p]) => ({
        name,
        type: String((p as Obj).$Type ?? "Edm.String"),
        nullable: (p as Obj).$Nullable === true,
        description: String((p as Obj)[CORE] ?? ""),
      }));
    const request = metadataUrl(ctx.feed.root);
    const key = String((set.entityType.$Key as string[] | undefined)?.[0] ?? "");
    return {
      structured: { name: set.name, key, description: set.description, properties, request },
      text: [
        `# ${set.name} (key ${key})`,
        "",
        set.description,
        "",
        table(properties, ["name", "type", "nullable", "description"], 100),
        footer([request], null),
      ].join("\n"),
    };
  },
};

const ORDER_ITEMS = {
  type: "array",
  items: { type: "string", pattern: "^\\s*[A-Za-z_][A-Za-z0-9_]*(\\s+(asc|desc|ASC|DESC))?\\s*$" },
  maxItems: 8,
  description: 'Sort keys, e.g. ["IssuedAt desc"].',
} as const;

const queryRows: Tool = {
  name: "query_rows",
  title: "Query rows of a dataset",
  description:
    "Rows of one dataset with an OData $filter, $select, $orderby and $top, one page per call (pageSize rows). The first page says how many rows match; pass `continuation` from an answer to get the next page. For totals and breakdowns use `aggregate` instead of paging through rows.",
  inputSchema: {
    type: "object",
    required: ["dataset"],
    properties: {
      dataset: DATASET_SCHEMA,
      filter: {
        type: "string",
        maxLength: 2000,
        description:
          "An OData $filter expression, e.g. \"Status eq 'used' and IssuedAt ge 2026-11-01T00:00:00Z\" (eq ne gt ge lt le and or not in, contains startswith endswith, year month day hour date).",
      },
      select: {
        type: "array",
        items: { type: "string" },
        maxItems: 40,
        description: "Properties to return.",
      },
      orderBy: ORDER_ITEMS,
      top: { type: "integer", minimum: 1, maximum: 1000000, description: "At most this many rows in all." },
      pageSize: {
        type: "integer",
        minimum: 1,
        maximum: 500,
        description: "Rows in this answer (default 50).",
      },
      continuation: {
        type: "string",
        maxLength: 8000,
        description:
          "The `continuation` of a previous answer: its next page (the other arguments are ignored).",
      },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    required: ["dataset", "rows", "count", "continuation", "request", "note"],
    properties: {
      dataset: { type: "string" },
      rows: { type: "array", items: { type: "object" } },
      count: { type: ["integer", "null"], description: "Rows matching the filter (first page only)." },
      continuation: {
        type: ["string", "null"],
        description: "Pass it back for the next page; null on the last.",
      },
      request: PROVENANCE.request,
      note: PROVENANCE.note,
    },
  },
  example: {
    dataset: "Tickets",
    filter: "Status eq 'used'",
    select: ["TicketId", "EventName"],
    pageSize: 10,
  },
  async run(ctx, args) {
    const dataset = args.dataset as BiEntitySet;
    const root = ctx.feed.root.href;
    let url: string;
    if (typeof args.continuation === "string") {
      if (!args.continuation.startsWith(`${root}/${dataset}?`))
        throw new ArgumentProblem(
          `\`continuation\` must be the continuation of an earlier answer on ${dataset} (it starts with ${root}/${dataset}?); start again without it.`,
        );
      url = args.continuation;
    } else url = rowsUrl(ctx.feed.root, args as never);
    const pageSize = typeof args.pageSize === "number" ? args.pageSize : 50;
    const page = await ctx.feed.page<Obj>(url, { maxPageSize: pageSize });
    const note =
      page.nextLink && page.count !== undefined
        ? `${page.count.toLocaleString("en-GB")} rows match; this answer holds ${page.value.length}. For totals use aggregate rather than paging.`
        : null;
    const columns = (args.select as string[] | undefined) ?? Object.keys(page.value[0] ?? {}).slice(0, 8);
    return {
      structured: {
        dataset,
        rows: page.value,
        count: page.count ?? null,
        continuation: page.nextLink ?? null,
        request: url,
        note,
      },
      text: [
        page.count !== undefined ? `${page.count} rows match.` : "",
        table(page.value, columns),
        page.nextLink ? `\nNext page: call query_rows with continuation ${page.nextLink}` : "",
        footer([url], note),
      ].join("\n"),
    };
  },
};

const aggregate: Tool = {
  name: "aggregate",
  title: "Aggregate a dataset",
  description:
    "Totals and breakdowns computed by the feed (OData $apply): group by properties and/or a time bucket (day, hour of day, month, year of a date-time), with count, sum, average, min, max or countdistinct, after an optional filter. Nothing is scanned here: the feed aggregates, the answer holds the groups (paged with a time limit).",
  inputSchema: {
    type: "object",
    required: ["dataset"],
    properties: {
      dataset: DATASET_SCHEMA,
      filter: { type: "string", maxLength: 2000, description: "An OData $filter expression applied first." },
      groupBy: {
        type: "array",
        items: { type: "string" },
        maxItems: 6,
        description: "Properties to group by.",
      },
      timeBucket: {
        type: "object",
        required: ["property", "unit"],
        properties: {
          property: { type: "string", description: "A date-time property, e.g. IssuedAt or ScannedAt." },
          unit: {
            type: "string",
            enum: ["day", "hour", "month", "year"],
            description:
              "day → column Day (YYYY-MM-DD), hour → Hour (0–23, hour of day), month → Year and Month, year → Year; UTC.",
          },
        },
        additionalProperties: false,
      },
      aggregates: {
        type: "array",
        maxItems: 8,
        items: {
          type: "object",
          required: ["method"],
          properties: {
            method: { type: "string", enum: ["count", "sum", "average", "min", "max", "countdistinct"] },
            property: { type: "string", description: "The aggregated property (not for count)." },
            as: {
              type: "string",
              description: "Name of the result column (default e.g. Count, PriceAmountSum).",
            },
          },
          additionalProperties: false,
        },
      },
      orderBy: { ...ORDER_ITEMS, description: 'Sort by result columns, e.g. ["Count desc"].' },
      top: { type: "integer", minimum: 1, maximum: 100000, description: "At most this many result rows." },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    required: ["dataset", "apply", "columns", "rows", "continuation", "request", "requests", "note"],
    properties: {
      dataset: { type: "string" },
      apply: { type: "string", description: "The $apply expression sent." },
      columns: { type: "array", items: { type: "string" } },
      rows: { type: "array", items: { type: "object" } },
      continuation: {
        type: ["string", "null"],
        description: "When the answer stopped early: the next page's URL; null when complete.",
      },
      ...PROVENANCE,
    },
  },
  example: {
    dataset: "Tickets",
    filter: "Status ne 'cancelled'",
    groupBy: ["EventName"],
    aggregates: [{ method: "count", as: "Tickets" }],
    orderBy: ["Tickets desc"],
  },
  async run(ctx, args) {
    const spec = args as unknown as AggregateSpec;
    const { url, apply, columns } = aggregateUrl(ctx.feed.root, spec);
    const got = await gatherAll<Obj>(ctx, url);
    return {
      structured: {
        dataset: spec.dataset,
        apply,
        columns,
        rows: got.rows,
        continuation: got.continuation,
        request: url,
        requests: got.requests,
        note: got.note,
      },
      text: [`$apply=${apply}`, "", table(got.rows, columns), footer(got.requests, got.note)].join("\n"),
    };
  },
};

export const GENERIC_TOOLS: readonly Tool[] = [listDatasets, describeDataset, queryRows, aggregate];
