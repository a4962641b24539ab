// The mock's texts are data: one message file per culture (src/messages/<tag>.json), looked up by key.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderMessagesModule } from "../../scripts/generate-messages.ts";
import { CULTURES, DEFAULT_CULTURE } from "../../src/core/culture.ts";
import { formatMessage, msg, pickText } from "../../src/core/messages.ts";

const src = fileURLToPath(new URL("../../src/", import.meta.url));
const messagesDir = path.join(src, "messages");
const files = readdirSync(messagesDir).filter((n) => n.endsWith(".json"));
const messages = Object.fromEntries(
  files.map((n) => [n.slice(0, -5), JSON.parse(readFileSync(path.join(messagesDir, n), "utf8"))]),
) as Record<string, Record<string, string>>;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "generated" ? [] : sources(full);
    return name.endsWith(".ts") ? [full] : [];
  });
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("message files", () => {
  it("exist for exactly the cultures the contract's catalogue lists", () => {
    expect(Object.keys(messages).sort()).toEqual([...CULTURES].sort());
  });

  it("hold the same keys in every culture, with the same placeholders", () => {
    const keys = Object.keys(messages[DEFAULT_CULTURE] ?? {}).sort();
    for (const [culture, table] of Object.entries(messages)) {
      expect(Object.keys(table).sort(), culture).toEqual(keys);
      for (const key of keys)
        expect(placeholders(table[key] ?? ""), `${culture} ${key}`).toEqual(
          placeholders(messages[DEFAULT_CULTURE]?.[key] ?? ""),
        );
    }
  });

  it("have a text for every key the code names, and no code builds texts by position or culture any more", () => {
    const missing: string[] = [];
    const positional: string[] = [];
    for (const file of sources(src)) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/\bmsg\(\s*"([^"]+)"/g))
        if (!((m[1] as string) in (messages[DEFAULT_CULTURE] ?? {})))
          missing.push(`${path.relative(src, file)}: ${m[1]}`);
      if (/(^|[^.\w$])t\(\s*["`]/m.test(text) || /"it-CH":\s*[`"]/.test(text))
        positional.push(path.relative(src, file));
    }
    expect(missing).toEqual([]);
    expect(positional).toEqual([]);
  });

  it("are bundled by the generated module (run `pnpm --filter @entrada/mock-server generate`)", () => {
    const generated = readFileSync(path.join(src, "generated/messages.ts"), "utf8");
    expect(generated).toBe(renderMessagesModule(files));
  });
});

describe("lookups", () => {
  it("fill placeholders, nested texts in the same culture, and fall back to the default culture", () => {
    expect(formatMessage("fr-CH", "shop.discovery.there-is-no-event", { id: "evt_1" })).toBe(
      messages["fr-CH"]?.["shop.discovery.there-is-no-event"]?.replace("{id}", "evt_1"),
    );
    const item = msg("shop.item-name", { event: msg("shop.catalogue.adult"), article: { "en-GB": "Seat" } });
    expect(pickText(item, "en-GB")).toBe("Adult – Seat");
    expect(pickText(item, "de-CH")).toBe("Erwachsene – Seat");
    expect(formatMessage("xx-XX", "shop.catalogue.adult")).toBe("Erwachsene");
    expect(formatMessage("en-GB", "no.such.key")).toBe("no.such.key");
  });

  it("pick literal texts by culture with the default culture as fallback", () => {
    expect(pickText({ "de-CH": "Halle", "fr-CH": "Salle" }, "fr-CH")).toBe("Salle");
    expect(pickText({ "de-CH": "Halle", "fr-CH": "Salle" }, "it-CH")).toBe("Halle");
  });
});
