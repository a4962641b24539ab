import type { DocsSnapshot } from "./content.ts";

/** One searchable unit: a module, an endpoint, or a guide section. */
export interface SearchDoc {
  kind: "module" | "endpoint" | "guide";
  id: string;
  title: string;
  summary: string;
  /** Relative link below the docs URL. */
  path: string;
  /** Weighted fields: title terms count three times, identifiers twice. */
  fields: { text: string; weight: number }[];
}

export interface SearchHit {
  doc: SearchDoc;
  score: number;
}

const STOP = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "for",
  "from",
  "how",
  "i",
  "in",
  "is",
  "it",
  "of",
  "on",
  "or",
  "the",
  "to",
  "with",
  "what",
  "do",
  "does",
  "can",
]);

/** Lower-case terms; camelCase, snake_case, dotted and path identifiers are split as well as kept whole. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[^\p{L}\p{N}_.$/{}-]+/u)) {
    if (!raw) continue;
    const whole = raw.toLowerCase().replace(/^[^\p{L}\p{N}$]+|[^\p{L}\p{N}]+$/gu, "");
    const parts = raw
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .split(/[\s_.$/{}-]+/)
      .map((p) => p.toLowerCase())
      .filter(Boolean);
    for (const p of new Set([whole, ...parts])) {
      if (p && !STOP.has(p)) out.push(stem(p));
    }
  }
  return out;
}

/** A light plural stemmer, so "tickets" finds "ticket" and "deliveries" finds "delivery". */
function stem(term: string): string {
  if (term.length > 4 && term.endsWith("ies")) return `${term.slice(0, -3)}y`;
  if (term.length > 3 && term.endsWith("s") && !term.endsWith("ss")) return term.slice(0, -1);
  return term;
}

function plain(markdown: string): string {
  return markdown.replace(/```[\s\S]*?```/g, " ").replace(/[#*`>|_[\]()]/g, " ");
}

function firstSentence(text: string): string {
  const clean = plain(text).replace(/\s+/g, " ").trim();
  const m = /^(.{20,240}?[.!?])(\s|$)/.exec(clean);
  return m ? (m[1] as string) : clean.slice(0, 240);
}

export function searchDocs(snapshot: DocsSnapshot): SearchDoc[] {
  const docs: SearchDoc[] = [];
  for (const m of snapshot.modules) {
    docs.push({
      kind: "module",
      id: m.name,
      title: m.title,
      summary: firstSentence(m.description),
      path: `/ai/module-${m.name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}.md`,
      fields: [
        { text: `${m.title} ${m.name}`, weight: 3 },
        { text: m.description, weight: 1 },
      ],
    });
  }
  for (const e of snapshot.endpoints) {
    docs.push({
      kind: "endpoint",
      id: e.operationId,
      title: `${e.method} ${e.path}`,
      summary: e.summary,
      path: `/ai/module-${e.module.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}.md#${e.operationId.toLowerCase()}`,
      fields: [
        { text: `${e.summary}`, weight: 3 },
        { text: `${e.operationId} ${e.path} ${e.method}`, weight: 2 },
        { text: e.description, weight: 1 },
      ],
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
        fields: [
          { text: `${s.title} ${g.title}`, weight: 3 },
          { text: plain(s.markdown), weight: 1 },
        ],
      });
    }
  }
  return docs;
}

/** BM25 over weighted fields (k1 = 1.2, b = 0.75). */
export class SearchIndex {
  private readonly tf: Map<string, number>[] = [];
  /** Terms of the title and identifier fields (weight ≥ 2), for a bonus when they cover the query. */
  private readonly titles: Set<string>[] = [];
  private readonly lengths: number[] = [];
  private readonly df = new Map<string, number>();
  private readonly avg: number;

  constructor(readonly docs: SearchDoc[]) {
    for (const doc of docs) {
      const counts = new Map<string, number>();
      const title = new Set<string>();
      let length = 0;
      for (const field of doc.fields) {
        for (const term of terms(field.text)) {
          counts.set(term, (counts.get(term) ?? 0) + field.weight);
          length += field.weight;
          if (field.weight >= 2) title.add(term);
        }
      }
      this.titles.push(title);
      this.tf.push(counts);
      this.lengths.push(length);
      for (const term of counts.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    }
    this.avg = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  /** Ranked hits with scores normalized to 0–1 (the best hit is 1). */
  search(query: string, limit: number): SearchHit[] {
    const q = [...new Set(terms(query))];
    if (q.length === 0) return [];
    const n = this.docs.length;
    const joined = query.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
    const raw: SearchHit[] = [];
    this.docs.forEach((doc, i) => {
      const counts = this.tf[i] as Map<string, number>;
      let score = 0;
      let matched = 0;
      for (const term of q) {
        const f = counts.get(term);
        if (!f) continue;
        matched++;
        const df = this.df.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * (f * 2.2)) / (f + 1.2 * (0.25 + (0.75 * (this.lengths[i] as number)) / this.avg));
      }
      // Documents matching more of the query rank higher than ones repeating a single term, and a title or
      // identifier that covers the query ("checkout cart" → checkoutCart) beats a passing mention.
      const titles = this.titles[i] as Set<string>;
      const inTitle = q.filter((term) => titles.has(term)).length;
      // The query spelled as an identifier ("checkout cart" = checkoutCart) names this very endpoint.
      const exact = q.length > 1 && titles.has(joined) ? 2 : 1;
      if (score > 0)
        raw.push({ doc, score: score * (matched / q.length) ** 2 * (1 + inTitle / q.length) * exact });
    });
    raw.sort((a, b) => b.score - a.score || a.doc.id.localeCompare(b.doc.id));
    const top = raw[0]?.score ?? 1;
    return raw.slice(0, limit).map((h) => ({ doc: h.doc, score: Math.round((h.score / top) * 1000) / 1000 }));
  }
}
