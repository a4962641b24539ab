// The built-in survey and BI-history seeds are JSON files checked against schemas (issue 18), like the shop
// catalogue: the committed files are sound, a broken copy is refused with the field named, and the data loaded is
// what the sections run on.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_CULTURE } from "../../src/core/culture.ts";
import { Prng } from "../../src/core/ids.ts";
import { checkSeedFile } from "../../src/node/seed-check.ts";
import { DEFAULT_HISTORY, drawUnit, historyPlan, ORDERS, TICKETS } from "../../src/sections/bi/history.ts";
import { DEFAULT_SURVEYS } from "../../src/sections/survey/index.ts";

/** A seed file of a section, as the shape the test names (the seed checks below are what hold it to it). */
const read = <T extends object = Record<string, unknown>>(path: string): T =>
  JSON.parse(readFileSync(new URL(`../../src/sections/${path}`, import.meta.url), "utf8"));
const keys = new Set(
  Object.keys(
    JSON.parse(readFileSync(new URL(`../../src/messages/${DEFAULT_CULTURE}.json`, import.meta.url), "utf8")),
  ),
);

describe("the survey seed file", () => {
  const seed = read("survey/seed/surveys.json");

  it("matches its schema and names only texts the message files have", () => {
    expect(checkSeedFile("surveys", seed, keys)).toEqual([]);
  });

  it("is what the survey section starts with", () => {
    expect(DEFAULT_SURVEYS.map((s) => [s.id, s.status])).toEqual([
      ["srv_festival", "active"],
      ["srv_conference", "active"],
      ["srv_feedback2025", "closed"],
    ]);
    expect(DEFAULT_SURVEYS).toEqual((seed as { surveys: unknown }).surveys);
  });

  it("a broken copy is refused with the field named", () => {
    const broken = structuredClone(seed) as {
      surveys: Array<Record<string, unknown> & { questions: object[] }>;
    };
    Object.assign(broken.surveys[0]?.questions[1] ?? {}, { type: "essay" });
    Object.assign(broken.surveys[1] ?? {}, { status: "draft", title: { $msg: "survey.seed.no-such-text" } });
    delete broken.surveys[2]?.createdAt;
    const problems = checkSeedFile("surveys", broken, keys);
    expect(problems).toContain("/surveys/0/questions/1/type must be equal to one of the allowed values");
    expect(problems).toContain("/surveys/1/status must be equal to one of the allowed values");
    expect(problems).toContain('/surveys/1/title/$msg names no message: "survey.seed.no-such-text"');
    expect(problems).toContain("/surveys/2 must have required property 'createdAt'");
  });
});

describe("the BI history seed file", () => {
  const seed = read<
    Record<string, unknown> & {
      history: Record<string, unknown>;
      venues: { id: string }[];
      articles: ({ id: string } & Record<string, unknown>)[];
    }
  >("bi/seed/history.json");

  it("matches its schema and names only texts the message files have", () => {
    expect(checkSeedFile("history", seed, keys)).toEqual([]);
  });

  it("is what the history is drawn from", () => {
    expect(DEFAULT_HISTORY).toEqual({ seed: 20260101, orders: 1500, days: 365 });
    const plan = historyPlan({ ...DEFAULT_HISTORY, anchor: Date.parse("2026-11-26T08:00:00Z") });
    const venues = seed.venues.map((v) => v.id);
    expect(plan.events).toHaveLength((seed.events as unknown[]).length);
    for (const event of plan.events) expect(venues).toContain(event.venueId);
    const rows: Record<string, unknown>[] = [];
    const prng = new Prng(plan.firstState);
    for (let unit = 0; unit < 40; unit++)
      drawUnit(plan, unit, prng.next, "fr-CH", (row) => rows.push(row), TICKETS);
    const articles = seed.articles.map((a) => a.id);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(articles).toContain(row.ArticleId);
    const orders: Record<string, unknown>[] = [];
    const again = new Prng(plan.firstState);
    for (let unit = 0; unit < 40; unit++)
      drawUnit(plan, unit, again.next, "fr-CH", (row) => orders.push(row), ORDERS);
    for (const order of orders) expect(seed.channels).toContain(order.Channel);
  });

  it("a broken copy is refused with the field named", () => {
    const broken = structuredClone(seed);
    broken.history.orders = 2_000_000;
    Object.assign(broken.articles[1] ?? {}, { price: "29.00" });
    broken.channels = ["api", "fax"];
    const problems = checkSeedFile("history", broken, keys);
    expect(problems).toContain("/history/orders must be <= 1000000");
    expect(problems).toContain("/articles/1/price must be integer");
    expect(problems).toContain("/channels/1 must be equal to one of the allowed values");
  });
});
