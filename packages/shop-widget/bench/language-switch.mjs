// Re-render time of a live language switch with texts and API data cached, against a baseline re-render
// (a theme toggle) measured in the same run. Runs the built npm package in jsdom with an in-memory shop API.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { JSDOM } from "jsdom";

const EVENTS = Array.from({ length: 12 }, (_, i) => ({
  id: `evt_${i}`,
  slug: `event-${i}`,
  venue: { id: "ven_1", name: "Halle", city: "Basel" },
  imageUrl: null,
  startsAt: `2026-12-${String(i + 1).padStart(2, "0")}T19:00:00Z`,
  endsAt: null,
  priceFrom: { amount: 2500 + i * 100, currency: "CHF" },
  available: true,
}));
const NAMES = { "de-CH": "Konzert", "fr-CH": "Concert", "it-CH": "Concerto", "en-GB": "Concert" };

/** A ShopApi with the catalogue in memory (only what the first step reads). */
const memoryApi = {
  listVenues: async () => [{ id: "ven_1", name: "Halle", city: "Basel" }],
  listEvents: async (_filters, _cursor, { locale }) => ({
    items: EVENTS.map((e) => ({ ...e, name: `${NAMES[locale]} ${e.id}`, summary: `${NAMES[locale]}…` })),
    nextCursor: null,
  }),
};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function measureLanguageSwitch(root, runs = 40) {
  const dom = new JSDOM("<!doctype html><html><head></head><body><div id=shop></div></body></html>", {
    url: "http://localhost/",
    pretendToBeVisual: true,
  });
  const { window } = dom;
  process.env.NODE_ENV = "production";
  for (const name of [
    "window",
    "document",
    "navigator",
    "location",
    "history",
    "sessionStorage",
    "HTMLElement",
    "Element",
    "Node",
    "MutationObserver",
    "getComputedStyle",
    "requestAnimationFrame",
    "cancelAnimationFrame",
  ]) {
    Object.defineProperty(globalThis, name, { value: window[name], configurable: true, writable: true });
  }
  const { mount } = await import(pathToFileURL(join(root, "dist", "index.js")).href);
  const container = window.document.getElementById("shop");
  const shop = mount(container, { api: memoryApi, locale: "de-CH" });

  const until = (check) =>
    new Promise((resolve) => {
      if (check()) return resolve();
      const observer = new window.MutationObserver(() => {
        if (check()) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe(container, { subtree: true, childList: true, characterData: true, attributes: true });
    });
  const heading = () => container.querySelector("h2")?.textContent;
  const firstCard = () => container.querySelector("h3")?.textContent;

  await until(() => firstCard() === "Konzert evt_0");
  // Warm: load the French texts and data once.
  shop.update({ locale: "fr-CH" });
  await until(() => firstCard() === "Concert evt_0" && heading() === "Événements");
  shop.update({ locale: "de-CH" });
  await until(() => firstCard() === "Konzert evt_0" && heading() === "Veranstaltungen");

  const switches = [];
  const toggles = [];
  for (let i = 0; i < runs; i += 1) {
    const french = i % 2 === 0;
    let t0 = performance.now();
    shop.update({ locale: french ? "fr-CH" : "de-CH" });
    await until(
      () =>
        heading() === (french ? "Événements" : "Veranstaltungen") &&
        firstCard() === (french ? "Concert evt_0" : "Konzert evt_0"),
    );
    switches.push(performance.now() - t0);

    const theme = french ? "dark" : "light";
    t0 = performance.now();
    shop.update({ theme });
    await until(() => container.querySelector(".entrada-shop")?.getAttribute("data-theme") === theme);
    toggles.push(performance.now() - t0);
  }
  shop.unmount();
  window.close();
  return { runs, switchMs: median(switches), baselineMs: median(toggles) };
}
