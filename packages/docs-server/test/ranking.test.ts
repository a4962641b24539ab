import { describe, expect, it } from "vitest";
import { createNodeDocsServer, SearchIndex, searchDocs } from "../src/index.ts";
import { RANKING } from "./ranking-queries.ts";

const index = new SearchIndex(searchDocs(createNodeDocsServer().snapshot));

describe("search_docs ranking", () => {
  it("has at least 30 natural queries, each naming an operation or guide section that exists", () => {
    expect(RANKING.length).toBeGreaterThanOrEqual(30);
    const ids = new Set(index.docs.map((d) => d.id));
    expect(RANKING.map(([, first]) => first).filter((id) => !ids.has(id))).toEqual([]);
  });

  it.each(RANKING)("%s → %s first", (query, first) => {
    const hits = index.search(query, 5);
    expect(hits.map((h) => h.doc.id)[0]).toBe(first);
    expect(hits[0]?.score).toBe(1);
  });

  it("stems, matches prefixes and identifiers, and returns nothing for nonsense", () => {
    expect(index.search("subscriptions", 1)[0]?.doc.id).toMatch(/WebhookSubscription/);
    expect(index.search("checkoutCart", 1)[0]?.doc.id).toBe("checkoutCart");
    expect(index.search("quicod", 1)[0]?.doc.id).toMatch(/Quicode/);
    expect(index.search("zzqxv", 5)).toEqual([]);
  });
});
