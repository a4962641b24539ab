import MiniSearch, { type SearchResult } from "minisearch";
import { stemmer } from "stemmer";
import { type DocsSnapshot, kebab } from "./content.ts";

/** One searchable unit: a module, an endpoint (or webhook event), or a guide section. */
export interface SearchDoc {
  kind: "module" | "endpoint" | "guide";
  id: string;
  title: string;
  summary: string;
  /** Relative link below the docs URL. */
  path: string;
  /** Indexed fields, weighted by BOOST: the identifier and summary above the path and tags, those above the body. */
  fields: { name: string; summary: string; route: string; tags: string; action: string; body: string };
}

export interface SearchHit {
  doc: SearchDoc;
  score: number;
}

/** Field weights (MiniSearch `boost`): what names a thing counts more than what mentions it. */
export const BOOST = { name: 5, summary: 3, route: 2, tags: 1.5, action: 2, body: 0.35 } as const;

const STOP = new Set(
  "a an and are as at be by can do does for from how i in is it its me my of on one or than that the this to use using want what when where whether which with you your v1".split(
    " ",
  ),
);

/**
 * Words of a text: camelCase, snake_case, dotted and path identifiers are split into their parts and also kept
 * whole (`checkoutCart` → `checkoutcart`, `checkout`, `cart`), so both "checkout cart" and "checkoutCart" match.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[^\p{L}\p{N}_.$-]+/u)) {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (!word) continue;
    const parts = word
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .split(/[\s_.$-]+/)
      .filter(Boolean);
    if (parts.length > 1) out.push(word.replace(/[_.$-]/g, ""));
    out.push(...parts);
  }
  return out;
}

/**
 * Latin-root stems Porter leaves apart although they name one action (`subscribe`/`subscription`,
 * `describe`/`description`, `receive`/`receipt`): the second form is mapped onto the first.
 */
const ROOTS: readonly [RegExp, string][] = [
  [/script$/, "scrib"],
  [/ceipt$/, "ceiv"],
];

/** Lower case, stop words dropped, Porter-stemmed (`subscriptions` → `subscrib`, `scanning` → `scan`). */
export function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (STOP.has(lower) || lower.length === 0) return null;
  if (!/^[a-z]+$/.test(lower) || lower.length <= 3) return lower;
  let stem = stemmer(lower);
  for (const [suffix, root] of ROOTS) stem = stem.replace(suffix, root);
  return stem;
}

/** Words that ask about outbound webhook events; without one, events rank below the operations they report. */
const ASKS_FOR_EVENTS = /\b(events?|webhooks?|notifications?|notif(y|ied)|callbacks?)\b/i;
/** Weight of a webhook event's score when the query does not ask for events. */
const EVENT_WEIGHT = 0.6;

/**
 * What an HTTP method does, in the words people use for it ("subscribe to webhooks" is a POST, "unsubscribe" a
 * DELETE), indexed with a low weight so the verb of a query prefers the operation of that kind.
 */
const ACTIONS: Record<string, string> = {
  POST: "create new add make register subscribe submit send start",
  PUT: "set replace choose attach",
  PATCH: "update change edit modify",
  DELETE: "delete remove unsubscribe stop",
  GET: "get read fetch show",
};

function plain(markdown: string): string {
  return markdown.replace(/```[\s\S]*?```/g, " ").replace(/[#*`>|_[\]()]/g, " ");
}

function firstSentence(text: string): string {
  const clean = plain(text).replace(/\s+/g, " ").trim();
  const m = /^(.{20,240}?[.!?])(\s|$)/.exec(clean);
  return m ? (m[1] as string) : clean.slice(0, 240);
}

/** The search documents of a snapshot: modules, endpoints and webhook events, guide sections. */
export function searchDocs(snapshot: DocsSnapshot): SearchDoc[] {
  const docs: SearchDoc[] = [];
  for (const m of snapshot.modules) {
    docs.push({
      kind: "module",
      id: m.name,
      title: m.title,
      summary: firstSentence(m.description),
      path: `/ai/module-${kebab(m.name)}.md`,
      fields: {
        name: `${m.name} ${m.title}`,
        summary: "",
        route: "",
        tags: m.name,
        action: "",
        body: plain(m.description),
      },
    });
  }
  for (const e of snapshot.endpoints) {
    const module = snapshot.modules.find((m) => m.name === e.module);
    docs.push({
      kind: "endpoint",
      id: e.operationId,
      title: `${e.method} ${e.path}`,
      summary: e.summary,
      path: `/ai/endpoint-${e.operationId}.md`,
      fields: {
        name: e.operationId,
        summary: e.summary,
        route: e.path.replace(/\{[^}]*\}/g, " "),
        tags: `${e.module} ${module?.title ?? ""}`,
        action: ACTIONS[e.method] ?? "",
        body: plain(e.description),
      },
    });
  }
  for (const g of snapshot.guides) {
    for (const s of g.sections) {
      docs.push({
        kind: "guide",
        id: `${g.name}#${s.slug}`,
        title: `${g.title}: ${s.title}`,
        summary: firstSentence(s.markdown.replace(/^## .*$/m, "")),
        path: `/ai/guide-${g.name}.md#${s.slug}`,
        fields: {
          name: s.title,
          summary: "",
          route: "",
          tags: `${g.name} ${g.title}`,
          action: "",
          body: plain(s.markdown.replace(/^## .*$/m, "")),
        },
      });
    }
  }
  return docs;
}

/**
 * Full-text search over the snapshot with MiniSearch (BM25+): field weights, Porter stemming, prefix matching
 * for words of three letters or more and a small edit-distance allowance for longer ones.
 */
export class SearchIndex {
  private readonly engine: MiniSearch<SearchDoc & { key: number }>;

  constructor(readonly docs: SearchDoc[]) {
    this.engine = new MiniSearch<SearchDoc & { key: number }>({
      idField: "key",
      fields: Object.keys(BOOST),
      extractField: (doc, field) =>
        field === "key" ? String(doc.key) : doc.fields[field as keyof SearchDoc["fields"]],
      tokenize,
      processTerm,
      searchOptions: {
        boost: { ...BOOST },
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
        weights: { fuzzy: 0.3, prefix: 0.5 },
        combineWith: "OR",
      },
    });
    this.engine.addAll(docs.map((doc, key) => ({ ...doc, key })));
  }

  /** Ranked hits with scores normalized to 0–1 (the best hit is 1). */
  search(query: string, limit: number): SearchHit[] {
    const events = ASKS_FOR_EVENTS.test(query) ? 1 : EVENT_WEIGHT;
    const hits: SearchResult[] = this.engine.search(query, {
      boostDocument: (key) =>
        (this.docs[key as number] as SearchDoc).title.startsWith("WEBHOOK ") ? events : 1,
    });
    const top = hits[0]?.score ?? 1;
    return hits.slice(0, limit).map((h) => ({
      doc: this.docs[h.id as number] as SearchDoc,
      score: Math.round((h.score / top) * 1000) / 1000,
    }));
  }
}
