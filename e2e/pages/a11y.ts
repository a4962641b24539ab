import { expect, type Page } from "@playwright/test";
import type { ShopPage } from "./shop-page";

/**
 * WCAG 2.2 AA checks of the widget's current state, as the accessibility spec runs them on every step (see
 * packages/shop-widget/ACCESSIBILITY.md for what each one stands for). Each returns the offending elements
 * (empty when the state conforms), so a failure names them.
 */

const INTERACTIVE =
  'button, a[href], input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex]:not([tabindex="-1"])';

/**
 * 2.5.8 Target Size (Minimum): every target at least 24 × 24 CSS px. A radio or checkbox counts with its label
 * (clicking either activates it); a link inside a sentence is exempt (the "inline" exception).
 */
export function undersizedTargets(shop: ShopPage): Promise<string[]> {
  return shop.shop.evaluate((root, selector) => {
    const name = (e: Element) =>
      `${e.tagName.toLowerCase()}[${(e.getAttribute("aria-label") ?? e.textContent ?? "").trim().slice(0, 40)}]`;
    const small: string[] = [];
    for (const element of root.querySelectorAll(selector)) {
      let box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === "hidden") continue;
      if (element.tagName === "A" && style.display === "inline") {
        const block = element.parentElement;
        const sentence = (block?.textContent ?? "").trim().length > (element.textContent ?? "").trim().length;
        if (sentence) continue;
      }
      const input = element instanceof HTMLInputElement ? element : undefined;
      const label = input?.labels?.[0];
      if (label && (input?.type === "radio" || input?.type === "checkbox")) {
        const l = label.getBoundingClientRect();
        const left = Math.min(box.left, l.left);
        const top = Math.min(box.top, l.top);
        box = new DOMRect(
          left,
          top,
          Math.max(box.right, l.right) - left,
          Math.max(box.bottom, l.bottom) - top,
        );
      }
      if (box.width < 24 - 0.01 || box.height < 24 - 0.01)
        small.push(`${name(element)} ${box.width.toFixed(1)}×${box.height.toFixed(1)}`);
    }
    return small;
  }, INTERACTIVE);
}

/**
 * 2.4.11 Focus Not Obscured (Minimum): Tab through the widget from its step heading; each element that takes
 * the focus must be at least partly visible — inside the viewport and not entirely covered (a sticky bar, a
 * host's fixed header). Returns the elements hidden when focused.
 */
export async function obscuredWhenFocused(page: Page, shop: ShopPage, max = 60): Promise<string[]> {
  await shop.shop.locator("h2").first().focus();
  const hidden: string[] = [];
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press("Tab");
    const state = await page.evaluate(() => {
      const active = document.activeElement;
      const root = document.querySelector("#tickets .entrada-shop");
      if (active === null || root === null || !root.contains(active))
        return { inside: false, visible: true, name: "" };
      const box = active.getBoundingClientRect();
      const points: Array<[number, number]> = [];
      for (const fx of [0.1, 0.5, 0.9])
        for (const fy of [0.1, 0.5, 0.9]) points.push([box.left + box.width * fx, box.top + box.height * fy]);
      const visible = points.some(([x, y]) => {
        if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
        const top = document.elementFromPoint(x, y);
        return (
          top !== null &&
          (top === active ||
            active.contains(top) ||
            (top instanceof HTMLLabelElement && top.control === active))
        );
      });
      const covering = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      const name = `${active.tagName.toLowerCase()}[${(active.getAttribute("aria-label") ?? active.textContent ?? "").trim().slice(0, 40)}] at ${Math.round(box.top)}–${Math.round(box.bottom)} of ${innerHeight}, under ${covering?.tagName.toLowerCase()}.${covering?.getAttribute("class") ?? ""}`;
      return { inside: true, visible, name };
    });
    if (!state.inside) break;
    if (!state.visible) hidden.push(state.name);
  }
  return hidden;
}

/**
 * 1.4.10 Reflow: at 320 CSS px (1280 px at 400 %), nothing in the widget needs horizontal scrolling: no element
 * reaches past the widget's right edge and the widget itself does not scroll sideways.
 */
export function horizontalOverflow(shop: ShopPage): Promise<string[]> {
  return shop.shop.evaluate((root) => {
    const edge = root.getBoundingClientRect().right + 0.5;
    const wide = [...root.querySelectorAll("*")]
      .filter((e) => {
        const box = e.getBoundingClientRect();
        return box.width > 0 && box.right > edge && !e.closest(".entrada-shop__visually-hidden");
      })
      .map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute("class") ?? ""}`);
    if (root.scrollWidth > root.clientWidth + 1)
      wide.push(`root scrolls ${root.scrollWidth} > ${root.clientWidth}`);
    return wide;
  });
}

/**
 * 1.4.12 Text Spacing: line height 1.5, paragraph spacing 2 em, letter spacing 0.12 em, word spacing 0.16 em, set
 * at the widget's own cascade level (as a user style sheet reaches it: see ACCESSIBILITY.md), then nothing is
 * clipped: no element that hides its overflow has more content than room.
 */
export async function applyTextSpacing(page: Page) {
  // With the page's CSP nonce, like every style of the dev page.
  await page.evaluate(
    (css) => {
      const style = document.createElement("style");
      style.nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? "";
      style.textContent = css;
      document.head.append(style);
    },
    `@layer entrada {
      .entrada-shop:not(#a#b#c), .entrada-shop :not(svg *):not(#a#b#c) {
        line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important;
      }
      .entrada-shop p:not(#a#b#c) { margin-bottom: 2em !important; }
    }`,
  );
}

export function clippedText(shop: ShopPage): Promise<string[]> {
  return shop.shop.evaluate((root) => {
    const clipped: string[] = [];
    for (const e of [root, ...root.querySelectorAll("*")]) {
      if (!(e instanceof HTMLElement) || e.closest(".entrada-shop__visually-hidden,svg")) continue;
      // A text field scrolls its own value (the caret reaches all of it): not clipped.
      if (e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement)
        continue;
      const s = getComputedStyle(e);
      const hides = (o: string) => o !== "visible";
      if (e.getClientRects().length === 0) continue;
      // Text kept for screen readers only (the 1 × 1 px clip pattern) is meant to be clipped.
      if (e.clientWidth <= 1 && e.clientHeight <= 1) continue;
      if (
        (hides(s.overflowX) && e.scrollWidth > e.clientWidth + 1) ||
        (hides(s.overflowY) && e.scrollHeight > e.clientHeight + 1) ||
        (s.textOverflow === "ellipsis" && e.scrollWidth > e.clientWidth + 1)
      )
        clipped.push(
          `${e.tagName.toLowerCase()}.${e.className} ${e.scrollWidth}×${e.scrollHeight} in ${e.clientWidth}×${e.clientHeight}`,
        );
    }
    return clipped;
  });
}

/**
 * Forced colours (Windows High Contrast): every button and field keeps a visible edge (backgrounds are dropped, so
 * a button drawn only by its fill would become bare text), and the focus indicator stays.
 */
export function edgelessControls(shop: ShopPage): Promise<string[]> {
  return shop.shop.evaluate((root) => {
    const bare: string[] = [];
    for (const e of root.querySelectorAll(
      "button, select, input:not([type=radio]):not([type=checkbox]), textarea",
    )) {
      if (e.getClientRects().length === 0) continue;
      const s = getComputedStyle(e);
      const edge = ["Top", "Right", "Bottom", "Left"].every(
        (side) =>
          s.getPropertyValue(`border-${side.toLowerCase()}-style`) !== "none" &&
          Number.parseFloat(s.getPropertyValue(`border-${side.toLowerCase()}-width`)) >= 1,
      );
      if (!edge) bare.push(`${e.tagName.toLowerCase()}[${(e.textContent ?? "").trim().slice(0, 30)}]`);
    }
    return bare;
  });
}

/** Reduced motion: nothing in the widget transitions or animates. */
export function moving(shop: ShopPage): Promise<string[]> {
  return shop.shop.evaluate((root) =>
    [root, ...root.querySelectorAll("*")]
      .filter((e) => {
        const s = getComputedStyle(e);
        const long = (v: string) => v.split(",").some((d) => Number.parseFloat(d) > 0);
        return long(s.transitionDuration) || (s.animationName !== "none" && long(s.animationDuration));
      })
      .map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute("class") ?? ""}`),
  );
}

export async function expectNone(found: Promise<string[]> | string[], what: string) {
  expect(await found, what).toEqual([]);
}

/** WCAG 1.4.11 asks 3 : 1; the widget keeps this margin above it so a host's surface colour does not tip it under. */
export const NON_TEXT_CONTRAST = 3.3;

/**
 * Non-text contrast 1.4.11: every enabled field, select and bordered button's boundary (its border, or its own
 * filled background) against the colour it sits on (the first opaque background behind it), and the focus ring (the
 * primary colour) against the widget's background; each at least {@link NON_TEXT_CONTRAST} : 1. Radios and checkboxes
 * are drawn by the browser (their unchecked ring is not in CSS): their checked fill, the accent colour, is checked.
 * Text-only buttons (no border, no fill) are identified by their text, which axe checks.
 */
export async function lowNonTextContrast(shop: ShopPage): Promise<string[]> {
  return (await nonTextContrast(shop)).low;
}

/**
 * The non-text contrast check's own figures for the theme on screen, as ACCESSIBILITY.md states them (three
 * decimals): the strong border token on the background and on the surface token, and the focus ring (the primary
 * colour) on the background, e.g. "border `#7a848f` on `#fff`: 3.801 : 1".
 */
export async function nonTextFigures(shop: ShopPage): Promise<string[]> {
  return (await nonTextContrast(shop)).figures;
}

function nonTextContrast(shop: ShopPage): Promise<{ low: string[]; figures: string[] }> {
  return shop.shop.evaluate((root, minimum) => {
    const probe = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
    if (probe === null) throw new Error("no canvas");
    /** Any CSS colour as sRGB 0–255 and alpha 0–1 (through a canvas, which understands every syntax). */
    const rgba = (css: string): [number, number, number, number] => {
      probe.clearRect(0, 0, 1, 1);
      probe.fillStyle = "#000";
      probe.fillStyle = css;
      probe.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = probe.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const luminance = ([r, g, b]: number[]) => {
      const [R = 0, G = 0, B = 0] = [r, g, b].map((v) => {
        const c = (v ?? 0) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * R + 0.7152 * G + 0.0722 * B;
    };
    const contrast = (a: number[], b: number[]) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
    };
    const behind = (element: Element) => {
      for (let e = element.parentElement; e !== null; e = e.parentElement) {
        const colour = rgba(getComputedStyle(e).backgroundColor);
        if (colour[3] === 1) return colour;
      }
      return [255, 255, 255, 1];
    };
    const nameOf = (e: Element) =>
      `${e.tagName.toLowerCase()}${e.getAttribute("aria-label") ? ` "${e.getAttribute("aria-label")}"` : ""}${e.id ? `#${e.id}` : ""} "${e.textContent?.trim().slice(0, 30)}"`;
    const low: string[] = [];
    const style = getComputedStyle(root);
    const theme = (root as HTMLElement).dataset.theme;
    const dark = theme === "dark" || (theme === "auto" && matchMedia("(prefers-color-scheme: dark)").matches);
    /** A design token as the theme resolves it (`light-dark(light, dark)` by the root's theme), as written. */
    const token = (name: string) => {
      const value = style.getPropertyValue(`--entrada-color-${name}`).trim();
      const pair = /^light-dark\((.+),\s*(.+)\)$/.exec(value);
      return (pair ? (dark ? pair[2] : pair[1]) : value)?.trim() ?? value;
    };
    const figure = (what: string, fore: string, back: string) =>
      `${what} \`${fore}\` on \`${back}\`: ${contrast(rgba(fore), rgba(back)).toFixed(3)} : 1`;
    const [border, background, surface, primary] = ["border-strong", "background", "surface", "primary"].map(
      token,
    );
    const figures = [
      figure("border", border ?? "", background ?? ""),
      figure("border", border ?? "", surface ?? ""),
      figure("focus ring", primary ?? "", background ?? ""),
    ];
    const ring = contrast(rgba(primary ?? ""), rgba(style.backgroundColor));
    if (ring < minimum) low.push(`focus ring ${ring.toFixed(2)} : 1`);
    for (const element of root.querySelectorAll("input, select, textarea, button")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || (element as HTMLButtonElement).disabled) continue;
      const s = getComputedStyle(element);
      if (s.visibility === "hidden") continue;
      const background = behind(element);
      const type = element.getAttribute("type");
      if (type === "radio" || type === "checkbox") {
        const fill = contrast(rgba(s.accentColor), background);
        if (fill < minimum) low.push(`${nameOf(element)} accent ${fill.toFixed(2)} : 1`);
        continue;
      }
      const border = rgba(s.borderTopColor);
      const bordered =
        s.borderTopStyle !== "none" && Number.parseFloat(s.borderTopWidth) > 0 && border[3] > 0;
      const own = rgba(s.backgroundColor);
      const filled = own[3] === 1 && contrast(own, background) > 1.01;
      if (!bordered && !filled) continue;
      const boundary = Math.max(
        bordered ? contrast(border, background) : 0,
        filled ? contrast(own, background) : 0,
      );
      if (boundary < minimum) low.push(`${nameOf(element)} ${boundary.toFixed(2)} : 1`);
    }
    return { low, figures };
  }, NON_TEXT_CONTRAST);
}
