/**
 * `entrada-mock seed --from DIR [--out FILE] [--examples DIR]`: turns what `proxy --record DIR` saved into
 *
 *   - a seed file the mock starts from (`entrada-mock --seed FILE`), so it serves the catalogue the real service
 *     served: venues and events (with slots, sold seats, pricing assortments, articles and prices) from the
 *     recorded `listVenues` and `getEvent` answers, texts merged across the cultures recorded (Content-Language);
 *   - contract examples to review: per operation, the first recorded answer of each status, for pasting into the
 *     OpenAPI document's `examples` (they are sanitized recordings, not the contract's own).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CULTURES } from "../core/culture.ts";
import type { Culture } from "../core/types.ts";
import type { Catalogue, CatalogueEvent, CatalogueVenue, SeedText } from "../sections/shop/catalogue.ts";
import type { Recording } from "./recorder.ts";

type Json = Record<string, unknown>;

/** Every recording under `dir` (one folder per operation). */
export function readRecordings(dir: string): Recording[] {
  const out: Recording[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === "examples") continue;
    for (const file of readdirSync(join(dir, entry.name)).sort()) {
      if (!file.endsWith(".json")) continue;
      try {
        out.push(JSON.parse(readFileSync(join(dir, entry.name, file), "utf8")) as Recording);
      } catch {
        // A file that is not a recording is not ours to read.
      }
    }
  }
  return out;
}

function cultureOf(recording: Recording): Culture {
  const tag = recording.response.headers["content-language"];
  return (CULTURES as readonly string[]).includes(tag ?? "") ? (tag as Culture) : "de-CH";
}

/** Text recorded in several cultures: one string when they agree, else one per culture. */
class Texts {
  private readonly values = new Map<string, Partial<Record<Culture, string>>>();
  add(key: string, culture: Culture, value: unknown): void {
    if (typeof value !== "string") return;
    const entry = this.values.get(key) ?? {};
    entry[culture] ??= value;
    this.values.set(key, entry);
  }
  get(key: string): SeedText {
    const entry = this.values.get(key) ?? {};
    const distinct = new Set(Object.values(entry));
    if (distinct.size <= 1) return [...distinct][0] ?? "";
    return entry as Record<string, string>;
  }
}

function okJson(recording: Recording, operationId: string): Json | null {
  if (recording.operationId !== operationId || recording.response.status !== 200) return null;
  const body = recording.response.body?.json;
  return body !== null && typeof body === "object" ? (body as Json) : null;
}

/** The shop catalogue the recordings show (events need a recorded `getEvent` 200 answer). */
export function catalogueFrom(recordings: readonly Recording[]): Catalogue {
  const texts = new Texts();
  const venues = new Map<string, CatalogueVenue>();
  const events = new Map<string, Json>();
  const addVenue = (venue: Json | undefined, culture: Culture) => {
    if (!venue || typeof venue.id !== "string") return;
    texts.add(`venue ${venue.id} name`, culture, venue.name);
    texts.add(`venue ${venue.id} city`, culture, venue.city);
    if (!venues.has(venue.id))
      venues.set(venue.id, {
        id: venue.id,
        name: "",
        city: "",
        // The recorded venue's time zone, so the mock's event dates and BI rows read as the real API's do.
        ...(typeof venue.timeZone === "string" ? { timeZone: venue.timeZone } : {}),
      });
  };
  for (const recording of recordings) {
    const culture = cultureOf(recording);
    for (const venue of (okJson(recording, "listVenues")?.items as Json[] | undefined) ?? [])
      addVenue(venue, culture);
    const event = okJson(recording, "getEvent");
    if (!event || typeof event.id !== "string") continue;
    addVenue(event.venue as Json | undefined, culture);
    if (!events.has(event.id)) events.set(event.id, event);
    for (const field of ["name", "summary", "description"])
      texts.add(`event ${event.id} ${field}`, culture, event[field]);
    for (const assortment of (event.pricingAssortments as Json[] | undefined) ?? []) {
      texts.add(`assortment ${assortment.id} name`, culture, assortment.name);
      for (const article of (assortment.articles as Json[] | undefined) ?? []) {
        texts.add(`article ${article.id} name`, culture, article.name);
        texts.add(`article ${article.id} description`, culture, article.description);
      }
    }
  }
  const catalogueEvents: CatalogueEvent[] = [...events.values()].map((event) => {
    const id = event.id as string;
    return {
      id,
      slug: String(event.slug ?? id),
      venueId: String((event.venue as Json | undefined)?.id ?? ""),
      name: texts.get(`event ${id} name`),
      summary: texts.get(`event ${id} summary`),
      description: texts.get(`event ${id} description`),
      ...(typeof event.imageUrl === "string" ? { imageUrl: event.imageUrl } : {}),
      slots: ((event.slots as Json[] | undefined) ?? []).map((slot) => {
        const capacity = Number(slot.capacity ?? 0);
        const available = Number(slot.available ?? capacity);
        return {
          id: String(slot.id),
          startsAt: String(slot.startsAt),
          endsAt: String(slot.endsAt),
          capacity,
          sold: Math.max(0, capacity - available),
        };
      }),
      pricingAssortments: ((event.pricingAssortments as Json[] | undefined) ?? []).map((assortment) => ({
        id: String(assortment.id),
        name: texts.get(`assortment ${assortment.id} name`),
        articles: ((assortment.articles as Json[] | undefined) ?? []).map((article) => {
          const price = article.price as { amount?: number; currency?: "CHF" | "EUR" } | undefined;
          return {
            id: String(article.id),
            slug: String(article.slug ?? article.id),
            name: texts.get(`article ${article.id} name`),
            description: texts.get(`article ${article.id} description`),
            price: price?.currency ? { [price.currency]: Number(price.amount ?? 0) } : {},
            maxPerOrder: Number(article.maxPerOrder ?? 10),
          };
        }),
      })),
      surveyId: typeof event.surveyId === "string" ? event.surveyId : null,
    };
  });
  return {
    venues: [...venues.values()].map((venue) => ({
      ...venue,
      name: texts.get(`venue ${venue.id} name`),
      city: texts.get(`venue ${venue.id} city`),
    })),
    events: catalogueEvents,
  };
}

export interface ExampleSet {
  operationId: string;
  method: string;
  template: string;
  examples: Array<{ status: number; mediaType: string; summary: string; value: unknown }>;
}

/** Per operation, the first recorded answer of each status (bodies as recorded, sanitized). */
export function examplesFrom(recordings: readonly Recording[]): ExampleSet[] {
  const sets = new Map<string, ExampleSet>();
  for (const recording of recordings) {
    let set = sets.get(recording.operationId);
    if (!set) {
      set = {
        operationId: recording.operationId,
        method: recording.method,
        template: recording.template,
        examples: [],
      };
      sets.set(recording.operationId, set);
    }
    const body = recording.response.body;
    if (!body || set.examples.some((e) => e.status === recording.response.status)) continue;
    set.examples.push({
      status: recording.response.status,
      mediaType: (recording.response.headers["content-type"] ?? "").split(";")[0] ?? "",
      summary: `Recorded from ${recording.source === "local" ? "the local fallback" : "the upstream"}: ${recording.method} ${recording.path}`,
      value: body.json ?? body.text,
    });
  }
  return [...sets.values()].sort((a, b) => a.operationId.localeCompare(b.operationId));
}

const HELP = `entrada-mock seed — turn the proxy's recordings into a seed for the mock and examples to review

Usage:
  entrada-mock seed --from <dir> [options]

Options:
  --from <dir>        The directory entrada-mock proxy --record wrote (required)
  --out <file>        Where the seed goes (default <dir>/seed.json); start the mock with --seed <file>
  --examples <dir>    Where the examples go, one <operationId>.json each (default <dir>/examples)
  -h, --help          This help
`;

export function seedMain(args: string[], io: { out: (l: string) => void; err: (l: string) => void }): number {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args,
      options: {
        from: { type: "string" },
        out: { type: "string" },
        examples: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    io.err(`entrada-mock seed: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  const from = values.from;
  if (typeof from !== "string") {
    io.err(`entrada-mock seed: --from <recordings dir> is required\n\n${HELP}`);
    return 2;
  }
  let recordings: Recording[];
  try {
    recordings = readRecordings(from);
  } catch (error) {
    io.err(`entrada-mock seed: cannot read ${from}: ${(error as Error).message}`);
    return 2;
  }
  const out = typeof values.out === "string" ? values.out : join(from, "seed.json");
  const examplesDir = typeof values.examples === "string" ? values.examples : join(from, "examples");
  const catalogue = catalogueFrom(recordings);
  writeFileSync(out, `${JSON.stringify({ shop: { catalogue } }, null, 2)}\n`);
  mkdirSync(examplesDir, { recursive: true });
  const examples = examplesFrom(recordings);
  for (const set of examples)
    writeFileSync(join(examplesDir, `${set.operationId}.json`), `${JSON.stringify(set, null, 2)}\n`);
  io.out(
    `${recordings.length} recordings → ${out} (${catalogue.venues.length} venues, ${catalogue.events.length} events; start the mock with --seed ${out})`,
  );
  io.out(`Examples to review: ${examplesDir} (${examples.length} operations)`);
  if (catalogue.events.length === 0)
    io.out("No getEvent answer was recorded: open some events through the proxy to seed the catalogue.");
  return 0;
}
