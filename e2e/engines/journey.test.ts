import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { after, before, describe, test } from "node:test";
import { tx } from "../pages/texts.ts";
import { startDevServer } from "./dev-server.ts";
import { type Driver, ENGINES, type Engine, launch } from "./driver.ts";

/**
 * One purchase journey, by keyboard alone, in Chromium, Firefox ESR and WebKitGTK, on the npm build and on the
 * script-tag build: choose tickets, a voucher applied and removed with the focus followed, a live language switch
 * that keeps the cart, a declined card that keeps the details, then the card that pays and the confirmation; axe
 * on every step. `ENGINES=firefox,webkit` narrows the engines. The deep checks of each behaviour stay in the
 * Playwright suite (Chromium); this is what must hold in every engine.
 */
const engines = (process.env.ENGINES?.split(",") ?? ENGINES) as Engine[];
const port = Number(process.env.E2E_ENGINES_PORT ?? 5175);
const origin = `http://127.0.0.1:${port}`;
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const NONCE = "entrada-dev-nonce";

let server: { stop(): void } | undefined;

before(async () => {
  server = await startDevServer(port);
});

after(() => {
  server?.stop();
});

interface Focus {
  where: "body" | "outside" | "widget";
  name?: string;
  tag?: string;
  visible?: boolean;
}

/** The page-side helpers, installed once per page: finding controls by accessible name, waiting, focus. */
function install(axe: string, nonce: string) {
  const w = window as unknown as Record<string, unknown>;
  if (w.__e2e) return;
  const script = document.createElement("script");
  script.nonce = nonce;
  script.textContent = axe;
  document.head.append(script);
  const root = () => document.querySelector("#tickets .entrada-shop");
  const nameOf = (element: Element): string => {
    const label = element.getAttribute("aria-label");
    if (label) return label;
    const id = element.getAttribute("id");
    const labelled = id ? document.querySelector(`label[for="${CSS.escape(id)}"]`) : null;
    return (labelled ?? element).textContent?.replace(/\s+/g, " ").trim() ?? "";
  };
  w.__e2e = {
    named(name: string) {
      return [...(root()?.querySelectorAll("button, input, select, a, textarea") ?? [])].find(
        (e) => nameOf(e) === name,
      );
    },
    focus(): Focus {
      const active = document.activeElement;
      if (active === null || active === document.body) return { where: "body" };
      const style = getComputedStyle(active);
      const outlined = style.outlineStyle !== "none" && style.outlineWidth !== "0px";
      return {
        where: active.closest(".entrada-shop") === null ? "outside" : "widget",
        name: nameOf(active),
        tag: active.tagName.toLowerCase(),
        // Headings show their focus too; a control's must be :focus-visible with an outline.
        visible: active.matches(":focus-visible") && outlined,
      };
    },
    async until<T>(check: () => T | undefined | false, what: string, timeout = 15_000): Promise<T> {
      const started = performance.now();
      for (;;) {
        const value = check();
        if (value !== undefined && value !== false) return value;
        if (performance.now() - started > timeout)
          throw new Error(
            `timed out waiting for ${what} (the focus on ${document.activeElement?.outerHTML.slice(0, 160)})`,
          );
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

interface E2e {
  named(name: string): HTMLElement | undefined;
  focus(): Focus;
  until<T>(check: () => T | undefined | false, what: string, timeout?: number): Promise<T>;
}

/** The widget's texts as the page shows them, in the language at hand. */
const t = (key: string, values: Record<string, string | number> = {}) => tx(key, values, "en-GB");

class Journey {
  readonly driver: Driver;

  constructor(driver: Driver) {
    this.driver = driver;
  }

  async open(build: string) {
    await this.driver.goto(`${origin}/?lang=en-GB${build === "npm" ? "" : `&build=${build}`}`);
    await this.driver.run(install, axeSource, NONCE);
    await this.heading(t("events.heading"), false);
  }

  /** Waits until the step's heading reads `name` (and, after a navigation, holds the focus). */
  heading(name: string, focused = true) {
    return this.driver.run(
      (name, focused) => {
        const e2e = (window as unknown as { __e2e: E2e }).__e2e;
        return e2e.until(
          () => {
            const heading = document.querySelector("#tickets .entrada-shop h2");
            if (heading?.textContent?.trim() !== name) return false;
            return !focused || document.activeElement === heading;
          },
          `the heading "${name}"${focused ? " focused" : ""}`,
        );
      },
      name,
      focused,
    );
  }

  /** Tab forward (at most 60 presses) until the control called `name` has the focus, as a keyboard user. */
  async tabTo(name: string) {
    for (let i = 0; i < 60; i += 1) {
      const focus = await this.focus();
      if (focus.name === name) return;
      await this.driver.press("Tab");
    }
    throw new Error(`${this.driver.engine}: "${name}" not reachable by Tab`);
  }

  focus() {
    return this.driver.run(() => (window as unknown as { __e2e: E2e }).__e2e.focus());
  }

  /** The focus lands on `name` in the widget, visibly. */
  async expectFocus(name: string) {
    await this.driver.run((name) => {
      const e2e = (window as unknown as { __e2e: E2e }).__e2e;
      return e2e.until(() => e2e.focus().name === name, `the focus on "${name}"`);
    }, name);
    const focus = await this.focus();
    assert.equal(focus.where, "widget", `${this.driver.engine}: the focus in the widget`);
    assert.equal(focus.visible, true, `${this.driver.engine}: the focus on "${name}" visible`);
  }

  text() {
    return this.driver.run(() => document.querySelector("#tickets")?.textContent?.replace(/\s+/g, " ") ?? "");
  }

  async waitForText(text: string) {
    await this.driver.run(
      (text) =>
        (window as unknown as { __e2e: E2e }).__e2e.until(
          () => document.querySelector("#tickets")?.textContent?.replace(/\s+/g, " ").includes(text),
          `"${text}" in the widget`,
        ),
      text,
    );
  }

  /** No axe-core violation (WCAG 2.x A/AA and 2.2 AA rules) in the widget. */
  async axe(step: string) {
    const violations = await this.driver.run(async () => {
      const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<AxeResults> } }).axe;
      const results = await axe.run(document.querySelector("#tickets"), {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"] },
      });
      return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    });
    assert.deepEqual(violations, [], `${this.driver.engine}, ${step}: axe`);
  }

  /** The host page's language select (the host calls `shop.update({ locale })`). */
  setLocale(locale: string) {
    return this.driver.run((locale) => {
      const select = document.querySelector<HTMLSelectElement>("#locale");
      if (select === null) throw new Error("no #locale");
      select.value = locale;
      select.dispatchEvent(new Event("change"));
    }, locale);
  }

  fieldValue(name: string) {
    return this.driver.run(
      (name) =>
        ((window as unknown as { __e2e: E2e }).__e2e.named(name) as HTMLInputElement | undefined)?.value,
      name,
    );
  }
}

interface AxeResults {
  violations: Array<{ id: string; nodes: Array<{ target: string[] }> }>;
}

async function journey(driver: Driver, build: string) {
  const j = new Journey(driver);
  await j.open(build);
  await j.axe("events");

  await j.tabTo(t("events.chooseFor", { name: "Family Theatre" }));
  await driver.press("Enter");
  await j.heading("Family Theatre");
  await j.axe("event");
  await j.tabTo(t("event.more", { name: "Adult" }));
  await driver.press("Enter", "Enter");
  await j.tabTo(t("event.add"));
  await driver.press("Enter");
  await j.heading(t("cart.heading"));
  await j.waitForText("CHF 110.00");
  await j.axe("cart");

  // The voucher field: every replaced control hands the focus on.
  const remove = t("voucher.remove", { code: "WINTER10" });
  await j.tabTo(t("voucher.label"));
  await driver.press({ text: "winter10" }, "Enter");
  await j.expectFocus(remove);
  await j.waitForText("CHF 99.00");
  await j.axe("cart with a voucher");
  await driver.press("Enter");
  await j.expectFocus(t("voucher.label"));
  await driver.press({ text: "NOPE" }, "Enter");
  await j.waitForText(t("errors.voucher-unknown"));
  await j.expectFocus(t("voucher.label"));
  await j.axe("cart with a refused code");
  await driver.press("Backspace", "Backspace", "Backspace", "Backspace", { text: "winter10" }, "Tab");
  await j.expectFocus(t("voucher.apply"));
  await driver.press("Enter");
  await j.expectFocus(remove);
  await j.waitForText("CHF 99.00");

  // A live language switch keeps the cart (and its discount).
  await j.setLocale("fr-CH");
  await j.heading(tx("cart.heading", {}, "fr-CH"), false);
  await j.waitForText("WINTER10");
  assert.match(await j.text(), /99[.,]00/, `${driver.engine}: the cart after the switch`);
  await j.setLocale("en-GB");
  await j.heading(t("cart.heading"), false);

  await j.tabTo(t("cart.next"));
  await driver.press("Enter");
  await j.heading(t("details.heading"));
  await j.axe("details");
  await j.tabTo(t("details.firstName"));
  await driver.press({ text: "Anna" }, "Tab", { text: "Muster" }, "Tab", { text: "anna@example.ch" });
  await j.tabTo(t("details.next"));
  await driver.press("Enter");
  await j.heading(t("payment.heading"));
  await j.axe("payment");

  // A declined card: the message takes the focus, the card number stays for a correction.
  await j.tabTo(t("payment.card"));
  await driver.press({ text: "4000000000000002" }, "Enter");
  await j.waitForText(t("errors.payment-declined"));
  assert.equal((await j.focus()).where, "widget", `${driver.engine}: focus after the decline`);
  assert.equal(await j.fieldValue(t("payment.card")), "4000 0000 0000 0002");
  await j.axe("payment declined");

  await j.tabTo(t("payment.card"));
  await driver.press(...Array<"Backspace">(19).fill("Backspace"), { text: "4242424242424242" }, "Enter");
  await j.heading(t("confirmation.heading"));
  await j.waitForText(t("confirmation.receipt"));
  await j.axe("confirmation");
}

for (const engine of engines) {
  describe(engine, () => {
    for (const build of ["npm", "script"]) {
      test(`${engine}, ${build} build: a purchase by keyboard, voucher, language switch, declined card, axe`, async () => {
        const driver = await launch(engine);
        try {
          await journey(driver, build);
        } finally {
          await driver.close();
        }
      });
    }
  });
}
