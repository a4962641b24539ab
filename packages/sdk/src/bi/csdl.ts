import { type BiEntitySet, biEntitySets, type EntitySetSpec, type ODataKind } from "./metadata.ts";

/**
 * The columns of a dataset as the feed's `$metadata` (CSDL) describes them: what a typed export (Parquet) writes.
 * `kind` is the SDK's literal kind, widened by the EDM types a feed may add later (`int64`, `double`, and `other`
 * for anything else, written as text).
 */
export interface BiColumn {
  name: string;
  kind: ODataKind | "int64" | "double" | "other";
  nullable: boolean;
  /** `Edm.Decimal` only: digits in all and after the point (CSDL `Precision`/`Scale`). */
  precision?: number;
  scale?: number;
}

/** Datasets (entity sets) by name, each with its columns in `$metadata` order. */
export type BiSchema = Readonly<Record<string, readonly BiColumn[]>>;

const EDM_KINDS: Record<string, BiColumn["kind"]> = {
  "Edm.String": "string",
  "Edm.Guid": "guid",
  "Edm.Int32": "int",
  "Edm.Int16": "int",
  "Edm.Byte": "int",
  "Edm.SByte": "int",
  "Edm.Int64": "int64",
  "Edm.Double": "double",
  "Edm.Single": "double",
  "Edm.Decimal": "decimal",
  "Edm.Boolean": "boolean",
  "Edm.Date": "date",
  "Edm.DateTimeOffset": "datetime",
};

function column(name: string, type: string, nullable: boolean, precision?: number, scale?: number): BiColumn {
  const kind = EDM_KINDS[type] ?? "other";
  if (kind !== "decimal") return { name, kind, nullable };
  return {
    name,
    kind,
    nullable,
    ...(precision !== undefined ? { precision } : {}),
    ...(scale !== undefined ? { scale } : {}),
  };
}

const intOrUndefined = (value: unknown): number | undefined => {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) ? n : undefined;
};

/** JSON CSDL (OData 4.01, `$metadata?$format=json`): entity sets of the container, their types' properties. */
function fromJson(doc: Record<string, unknown>): BiSchema {
  const containerName = String(doc.$EntityContainer ?? "");
  const dot = containerName.lastIndexOf(".");
  const namespace = doc[containerName.slice(0, dot)] as Record<string, Record<string, unknown>> | undefined;
  const container = namespace?.[containerName.slice(dot + 1)];
  if (!namespace || !container) throw new Error("no $EntityContainer");
  const schema: Record<string, BiColumn[]> = {};
  for (const [setName, set] of Object.entries(container)) {
    if (setName.startsWith("$") || setName.includes("@") || typeof set !== "object" || !set) continue;
    const typeName = String((set as { $Type?: unknown }).$Type ?? "");
    const type = namespace[typeName.slice(typeName.lastIndexOf(".") + 1)];
    if (!type) continue;
    schema[setName] = Object.entries(type)
      .filter(([name, p]) => !name.startsWith("$") && !name.includes("@") && typeof p === "object" && p)
      .filter(
        ([, p]) =>
          (p as { $Kind?: unknown }).$Kind === undefined || (p as { $Kind?: unknown }).$Kind === "Property",
      )
      .map(([name, p]) => {
        const prop = p as Record<string, unknown>;
        return column(
          name,
          String(prop.$Type ?? "Edm.String"),
          prop.$Nullable === true,
          intOrUndefined(prop.$Precision),
          intOrUndefined(prop.$Scale),
        );
      });
  }
  return schema;
}

const attributes = (tag: string): Record<string, string> =>
  Object.fromEntries([...tag.matchAll(/([\w:.]+)\s*=\s*"([^"]*)"/g)].map((m) => [m[1], m[2]]));

/**
 * XML CSDL (OData 4.0's `$metadata`), read for its entity types, properties and entity sets only: enough for
 * columns; anything else in the document is passed over.
 */
function fromXml(xml: string): BiSchema {
  const types = new Map<string, BiColumn[]>();
  for (const m of xml.matchAll(/<EntityType\b([^>]*)>([\s\S]*?)<\/EntityType>/g)) {
    const name = attributes(m[1] ?? "").Name;
    if (!name) continue;
    const props = [...(m[2] ?? "").matchAll(/<Property\b([^>]*?)\/?>/g)].map((p) => {
      const a = attributes(p[1] ?? "");
      // CSDL XML: Nullable defaults to true.
      return column(
        String(a.Name),
        a.Type ?? "Edm.String",
        a.Nullable !== "false",
        intOrUndefined(a.Precision),
        intOrUndefined(a.Scale),
      );
    });
    types.set(name, props);
  }
  const schema: Record<string, BiColumn[]> = {};
  for (const m of xml.matchAll(/<EntitySet\b([^>]*?)\/?>/g)) {
    const a = attributes(m[1] ?? "");
    const type = a.EntityType ? types.get(a.EntityType.slice(a.EntityType.lastIndexOf(".") + 1)) : undefined;
    if (a.Name && type) schema[a.Name] = type;
  }
  if (!Object.keys(schema).length) throw new Error("no EntitySet with a known EntityType");
  return schema;
}

/** Reads a `$metadata` document (JSON or XML CSDL); throws when it is neither or names no dataset. */
export function parseCsdl(text: string): BiSchema {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{")) return fromJson(JSON.parse(trimmed) as Record<string, unknown>);
  if (trimmed.startsWith("<")) return fromXml(trimmed);
  throw new Error("neither JSON nor XML CSDL");
}

/** The SDK's built-in copy of the four datasets' columns (used when `$metadata` cannot be read). */
export function builtInColumns(set: BiEntitySet): BiColumn[] {
  return Object.entries(biEntitySets[set] as EntitySetSpec).map(([name, spec]) => {
    const nullable = spec.endsWith("?");
    const kind = (nullable ? spec.slice(0, -1) : spec) as ODataKind;
    return kind === "decimal" ? { name, kind, nullable, precision: 18, scale: 2 } : { name, kind, nullable };
  });
}

/** The columns named by a `$select` (all when none), in its order; a name the dataset lacks is refused. */
export function pickColumns(
  set: BiEntitySet,
  all: readonly BiColumn[],
  names: readonly string[] | undefined,
) {
  if (!names) return all;
  return names.map((name) => {
    const found = all.find((c) => c.name === name);
    if (!found)
      throw new RangeError(
        `Unknown property "${name}" of ${set}; expected one of ${all.map((c) => c.name).join(", ")}`,
      );
    return found;
  });
}
