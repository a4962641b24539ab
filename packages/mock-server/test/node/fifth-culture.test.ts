// Adding a culture is adding files: the folder test/fixtures/cultures/rm-CH holds only data (culture.json, the
// contract's culture file; messages.json, the mock's texts) and no code of the mock changes, yet the mock
// negotiates Romansh, lists it, and answers problems, field errors, handler texts and seed data in it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { negotiateCulture } from "../../src/core/culture.ts";
import { formatMessage } from "../../src/core/messages.ts";
import { loadCultures } from "../../src/node/cultures.ts";
import { type Api, bearer, bodyOf, problemOf, startApi } from "../helpers.ts";

const fixtures = fileURLToPath(new URL("../fixtures/cultures", import.meta.url));
const ROMANSH = { "accept-language": "rm-CH" };

let api: Api;
let token: string;
beforeAll(async () => {
  api = await startApi({ cultures: fixtures });
  token = await api.token("Shop");
});
afterAll(() => api.close());

describe("a fifth culture from files alone", () => {
  it("is negotiated: exact tag, the bare language, and never over the built-in default", async () => {
    expect(negotiateCulture("rm-CH")).toBe("rm-CH");
    expect(negotiateCulture("rm")).toBe("rm-CH");
    expect(negotiateCulture("xx, *")).toBe("de-CH");
    const response = await api.fetch("/shop/v1/discovery/venues", { headers: bearer(token, ROMANSH) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-language")).toBe("rm-CH");
  });

  it("is listed by the system configuration with its name, not as the default", async () => {
    const response = await api.fetch("/shop/v1/system/configuration", { headers: bearer(token, ROMANSH) });
    const body = await bodyOf(response, "getSystemConfiguration");
    expect(body.cultures.map((c) => c.tag)).toEqual(["de-CH", "fr-CH", "it-CH", "en-GB", "rm-CH"]);
    expect(body.cultures.at(-1)).toEqual({ tag: "rm-CH", name: "Rumantsch (Svizra)", default: false });
  });

  it("answers a problem with its title and a handler's detail with its text", async () => {
    const response = await api.fetch("/shop/v1/discovery/events/evt_NOPE", {
      headers: bearer(token, ROMANSH),
    });
    expect(response.status).toBe(404);
    const problem = await problemOf(response);
    expect(problem).toMatchObject({ title: "Betg chattà", detail: "I na dat nagin occurrenza evt_NOPE." });
  });

  it("localizes field errors, and falls back to the default culture for a text it lacks", async () => {
    const cart = await api.fetch("/shop/v1/cart", { method: "POST", headers: bearer(token, ROMANSH) });
    const { id } = await bodyOf(cart, "createCart");
    const response = await api.fetch(`/shop/v1/cart/${id}/customer`, {
      method: "PUT",
      headers: bearer(token, ROMANSH),
      json: { firstName: "Ursina" },
    });
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem.title).toBe("Dumonda nunvalida");
    expect(problem.errors).toContainEqual({ pointer: "/body/lastName", detail: "Champ obligatoric manca." });
    // A text the Romansh files do not have: the default culture's, never a key or an empty string.
    expect(formatMessage("rm-CH", "shop.catalogue.bern")).toBe(formatMessage("de-CH", "shop.catalogue.bern"));
  });

  it("shows seed data in it", async () => {
    const response = await api.fetch("/shop/v1/discovery/venues", { headers: bearer(token, ROMANSH) });
    const { items } = await bodyOf(response, "listVenues");
    expect(items.find((v) => v.name === "Kaufleuten")?.city).toBe("Turitg");
  });
});

describe("a culture folder with bad data", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "entrada-cultures-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is refused with the file and the field named", () => {
    mkdirSync(path.join(dir, "sv-SE"));
    writeFileSync(path.join(dir, "sv-SE", "culture.json"), JSON.stringify({ tag: "sv-SE" }));
    expect(() => loadCultures(dir)).toThrow(
      /sv-SE[/\\]culture\.json: "name" must be the culture's name in itself/,
    );
    writeFileSync(path.join(dir, "sv-SE", "culture.json"), JSON.stringify({ tag: "sv-SE", name: "Svenska" }));
    writeFileSync(path.join(dir, "sv-SE", "messages.json"), JSON.stringify({ "shop.catalogue.bern": 3 }));
    expect(() => loadCultures(dir)).toThrow(
      /messages\.json: message "shop\.catalogue\.bern" must be a string/,
    );
  });
});
