import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { after, before, describe, test } from "node:test";
import { AXE_RUN_OPTIONS, AXE_SCOPE, type AxeViolation, describeViolations } from "../pages/axe-rules.ts";
import { tx } from "../pages/texts.ts";
import { startDevServer } from "./dev-server.ts";
import { type Driver, ENGINES, type Engine, launch } from "./driver.ts";

/**
 * One purchase journey, by keyboard alone, in Chromium, Firefox ESR and WebKitGTK, on the npm build and on the
 * script-tag build: choose tickets, a voucher applied and removed, a live language switch that keeps the cart, a
 * declined card that keeps the details, then the card that pays and the confirmation; axe on every step.
 * `ENGINES=firefox,webkit` narrows the engines. The deep checks of each behaviour stay in the Playwright suite
 * (Chromium); this is what must hold in every engine.
 *
 * On the way it walks every action that removes, disables or replaces the focused control (WCAG 2.4.3, 2.4.7) and
 * checks after each that the focus is in the widget, on the natural successor, and visibly focused
 * (`:focus-visible` with an outline), never on `<body>`: a stepper reaching its maximum and 0, "Add to cart" with
 * nothing chosen (the message) and with tickets (the cart's heading), a cart line's Remove (the next line's), the
 * last line's (the heading), "Add more tickets", the voucher's apply, remove and refusal, the language switch while
 * "Remove code" has the focus, the details refused (the first field), Back, the declined card (the message), the
 * retry, and "Buy more tickets" on the confirmation.
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
  role?: string | null;
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
    /**
     * How many presses of Tab (or Shift+Tab) reach the widget's control called `name` from the focus, by the
     * document's tab order (no positive tabindex here; one stop per radio group); undefined when a link lies in
     * between (engines differ on whether Tab stops at links) or the count is unsure.
     */
    tabsTo(name: string, backwards: boolean): number | undefined {
      const stops = [
        ...document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, [tabindex]"),
      ].filter((e) => {
        if (e.tabIndex < 0 || (e as HTMLButtonElement).disabled || e.getClientRects().length === 0)
          return false;
        if (!(e instanceof HTMLInputElement) || e.type !== "radio") return true;
        const group = [...document.querySelectorAll<HTMLInputElement>(`input[name="${CSS.escape(e.name)}"]`)];
        return e === (group.find((r) => r.checked) ?? group[0]);
      });
      const active = document.activeElement;
      const target = stops.findIndex((e) => e.closest(".entrada-shop") !== null && nameOf(e) === name);
      if (active === null || target < 0) return undefined;
      const after = (e: Element) =>
        (active.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
      const at = stops.indexOf(active as HTMLElement);
      // From an element outside the tab order (a focused heading), the first press lands next to it.
      const next =
        at >= 0
          ? at + (backwards ? -1 : 1)
          : backwards
            ? stops.findLastIndex((e) => !after(e))
            : stops.findIndex(after);
      if (next < 0) return undefined;
      const [low, high] = backwards ? [target, next] : [next, target];
      if (high < low || stops.slice(low, high + 1).some((e) => e.tagName === "A")) return undefined;
      return high - low + 1;
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
        role: active.getAttribute("role"),
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
  tabsTo(name: string, backwards: boolean): number | undefined;
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

  /** Waits until the step's heading reads `name` (and, after a navigation, holds the focus, visibly). */
  async heading(name: string, focused = true) {
    await this.driver.run(
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
    if (focused) await this.expectVisibleFocus(`the heading "${name}"`);
  }

  /** Tab (or Shift+Tab) at most 60 times until the control called `name` has the focus, as a keyboard user. */
  async tabTo(name: string, key: "Tab" | "ShiftTab" = "Tab") {
    // All but the last press at once where the tab order is plain (one round trip, not one per press), then one by
    // one: a miscount costs time, never a wrong pass.
    const presses = await this.driver.run(
      (name, backwards) => (window as unknown as { __e2e: E2e }).__e2e.tabsTo(name, backwards),
      name,
      key === "ShiftTab",
    );
    if (presses !== undefined && presses > 1)
      await this.driver.press(...Array<typeof key>(presses - 1).fill(key));
    const passed: string[] = [];
    for (let i = 0; i < 60; i += 1) {
      const focus = await this.focus();
      if (focus.name === name) return;
      passed.push(focus.name ?? focus.where);
      await this.driver.press(key);
    }
    throw new Error(
      `${this.driver.engine}: "${name}" not reachable by ${key} (passed ${passed.join(" | ")})`,
    );
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
    await this.expectVisibleFocus(`"${name}"`);
  }

  /** A message (`role="alert"`) takes the focus, visibly, and says `text`. */
  async expectAlertFocused(text: string) {
    await this.driver.run((text) => {
      const e2e = (window as unknown as { __e2e: E2e }).__e2e;
      return e2e.until(() => {
        const focus = e2e.focus();
        return focus.role === "alert" && focus.name?.includes(text);
      }, `the message "${text}" focused`);
    }, text);
    await this.expectVisibleFocus(`the message "${text}"`);
  }

  async expectVisibleFocus(what: string) {
    const focus = await this.focus();
    assert.equal(focus.where, "widget", `${this.driver.engine}: the focus on ${what} in the widget`);
    assert.equal(focus.visible, true, `${this.driver.engine}: the focus on ${what} visible`);
  }

  /** The accessible names of the cart lines' Remove buttons, in order. */
  removeButtons() {
    return this.driver.run(() =>
      [...document.querySelectorAll("#tickets .entrada-shop__lines tbody button")].map(
        (b) => b.getAttribute("aria-label") ?? "",
      ),
    );
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

  /** No axe-core violation in the widget, with the Playwright suite's rules (pages/axe-rules.ts). */
  async axe(step: string) {
    const violations = await this.driver.run(
      async (scope, options) => {
        const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<AxeResults> } }).axe;
        const results = await axe.run(document.querySelector(scope), options);
        return results.violations;
      },
      AXE_SCOPE,
      AXE_RUN_OPTIONS,
    );
    assert.deepEqual(describeViolations(violations), [], `${this.driver.engine}, ${step}: axe`);
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
  violations: AxeViolation[];
}

async function journey(driver: Driver, build: string) {
  const j = new Journey(driver);
  await j.open(build);
  await j.axe("events");

  await j.tabTo(t("events.chooseFor", { name: "Family Theatre" }));
  await driver.press("Enter");
  await j.heading("Family Theatre");
  await j.axe("event");
  // "Add to cart" with nothing chosen: the message takes the focus.
  await j.tabTo(t("event.add"));
  await driver.press("Enter");
  await j.expectAlertFocused(t("event.pickArticle"));
  // A stepper at its maximum (6 children) and back at 0 keeps the focus on itself.
  const CHILD = "Child (under 16)";
  const moreChild = t("event.more", { name: CHILD });
  await j.tabTo(moreChild, "ShiftTab");
  await driver.press(...Array<"Enter">(7).fill("Enter"));
  await j.expectFocus(moreChild);
  assert.equal(await j.fieldValue(CHILD), "6", `${driver.engine}: the maximum`);
  await driver.press("ShiftTab", "ShiftTab", ...Array<"Enter">(7).fill("Enter"));
  await j.expectFocus(t("event.less", { name: CHILD }));
  assert.equal(await j.fieldValue(CHILD), "0", `${driver.engine}: back at 0`);
  await driver.press("Tab", "Tab", "Enter");
  await j.tabTo(t("event.more", { name: "Adult" }), "ShiftTab");
  await driver.press("Enter", "Enter");
  await j.tabTo(t("event.add"));
  await driver.press("Enter");
  await j.heading(t("cart.heading"));
  await j.waitForText("CHF 110.00");
  await j.axe("cart");

  // A line's Remove hands the focus to the next line's; the last line's to the heading.
  const [first, second] = await j.removeButtons();
  assert.ok(first !== undefined && second !== undefined, `${driver.engine}: two lines`);
  await j.tabTo(first);
  await driver.press("Enter");
  await j.expectFocus(second);
  await driver.press("Enter");
  await j.waitForText(t("cart.empty"));
  await j.expectFocus(t("cart.heading"));
  await j.tabTo(t("cart.shop"));
  await driver.press("Enter");
  await j.heading(t("events.heading"));
  await j.tabTo(t("events.chooseFor", { name: "Family Theatre" }));
  await driver.press("Enter");
  await j.heading("Family Theatre");
  await j.tabTo(t("event.more", { name: "Adult" }));
  await driver.press("Enter", "Enter");
  await j.tabTo(t("event.add"));
  await driver.press("Enter");
  await j.heading(t("cart.heading"));
  await j.waitForText("CHF 110.00");

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

  // A live language switch keeps the cart (and its discount), and the focus where it was.
  await j.setLocale("fr-CH");
  await j.heading(tx("cart.heading", {}, "fr-CH"), false);
  await j.waitForText("WINTER10");
  assert.match(await j.text(), /99[.,]00/, `${driver.engine}: the cart after the switch`);
  await j.expectFocus(tx("voucher.remove", { code: "WINTER10" }, "fr-CH"));
  await j.setLocale("en-GB");
  await j.heading(t("cart.heading"), false);
  await j.expectFocus(remove);

  await j.tabTo(t("cart.next"));
  await driver.press("Enter");
  await j.heading(t("details.heading"));
  await j.axe("details");
  // Continue with the details missing: the first field that needs them takes the focus.
  await j.tabTo(t("details.next"));
  await driver.press("Enter");
  await j.expectFocus(t("details.firstName"));
  await driver.press({ text: "Anna" }, "Tab", { text: "Muster" }, "Tab", { text: "anna@example.ch" });
  await j.tabTo(t("details.next"));
  await driver.press("Enter");
  await j.heading(t("payment.heading"));
  await j.tabTo(t("payment.back"));
  await driver.press("Enter");
  await j.heading(t("details.heading"));
  await j.tabTo(t("details.next"));
  await driver.press("Enter");
  await j.heading(t("payment.heading"));
  await j.axe("payment");

  // A declined card: the message takes the focus, the card number stays for a correction.
  await j.tabTo(t("payment.card"));
  await driver.press({ text: "4000000000000002" }, "Enter");
  await j.expectAlertFocused(t("errors.payment-declined"));
  assert.equal(await j.fieldValue(t("payment.card")), "4000 0000 0000 0002");
  await j.axe("payment declined");

  // Back to the card number (before the message; tabbing on past the page's end would leave the page).
  await j.tabTo(t("payment.card"), "ShiftTab");
  await driver.press(...Array<"Backspace">(19).fill("Backspace"), { text: "4242424242424242" }, "Enter");
  await j.heading(t("confirmation.heading"));
  await j.waitForText(t("confirmation.receipt"));
  await j.axe("confirmation");
  await j.tabTo(t("confirmation.again"));
  await driver.press("Enter");
  await j.heading(t("events.heading"));
}

for (const engine of engines) {
  describe(engine, () => {
    for (const build of ["npm", "script"]) {
      test(`${engine}, ${build} build: a purchase by keyboard, focus never lost, voucher, language switch, declined card, axe`, async () => {
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
