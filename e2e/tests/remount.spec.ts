import { expect, type Page, test } from "@playwright/test";
import { memoryProbe, type Retained, retained } from "../pages/memory";
import { ShopPage } from "../pages/shop-page";

/**
 * Single-page apps mount the shop on every visit of its route and unmount it on the way out. 200 such cycles on
 * one container, each showing the catalogue, must leave nothing behind: live DOM nodes and listeners as after the
 * first cycle, and the JavaScript heap after garbage collection flat. "Flat" has a margin for the code the engine
 * compiles while it warms up (up to 1.5 MB over the first 100 cycles of React's development build, then ≈ 0.1 MB
 * per 50); a kept instance is ≈ 40 KB, so keeping one per cycle grows the heap by 4 MB over the last 100 cycles,
 * and three nodes kept per cycle put the last count ≈ 600 above the first. Both builds (the config's `npm` and
 * `script` projects mount through `entradaDev.mount`, the build's own). Then a host's misuse: remounting in a tight
 * loop, unmounting during a payment, two mounts on one container. Chromium only: the counters come from the DevTools
 * protocol.
 */

const CYCLES = 200;
/** Heap growth allowed from the first cycle to the last (warm-up included) and over the last half alone. */
const WARM_MARGIN = 2.5 * 1024 * 1024;
const HALF_MARGIN = 0.5 * 1024 * 1024;

/** Runs in the page: `count` mount → catalogue shown → unmount cycles on `#remount-probe`. */
function cycles(page: Page, count: number, waitForCatalogue = true) {
  return page.evaluate(
    async ({ count, waitForCatalogue }) => {
      const dev = (window as unknown as { entradaDev: EntradaDev }).entradaDev;
      let container = document.querySelector("#remount-probe");
      if (container === null) {
        container = document.createElement("div");
        container.id = "remount-probe";
        document.body.append(container);
      }
      for (let i = 0; i < count; i += 1) {
        const handle = dev.mount(container, dev.quietConfig());
        if (waitForCatalogue) {
          const shown = container;
          await new Promise<void>((resolve) => {
            const observer = new MutationObserver(() => {
              if (shown.querySelector(".entrada-shop__card") === null) return;
              observer.disconnect();
              resolve();
            });
            observer.observe(shown, { childList: true, subtree: true });
          });
        }
        handle.unmount();
      }
      return container.childElementCount;
    },
    { count, waitForCatalogue },
  );
}

interface EntradaDev {
  mount(container: Element, config: object): { unmount(): void };
  quietConfig(): object;
}

/** The page's uncaught errors and console warnings, as they come. */
function watch(page: Page) {
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "warning") warnings.push(message.text());
  });
  return { errors, warnings };
}

function expectFlat(first: Retained, half: Retained, last: Retained) {
  for (const later of [half, last]) {
    expect.soft(later.listeners, "event listeners").toBeLessThanOrEqual(first.listeners);
    expect.soft(later.nodes, "DOM nodes").toBeLessThanOrEqual(first.nodes);
  }
  expect.soft(last.heap - first.heap, "JS heap growth from the first cycle, bytes").toBeLessThan(WARM_MARGIN);
  expect.soft(last.heap - half.heap, "JS heap growth over the last half, bytes").toBeLessThan(HALF_MARGIN);
}

test(`${CYCLES} mount/unmount cycles leave no nodes, listeners or heap behind`, async ({ page }) => {
  test.setTimeout(180_000);
  const shop = new ShopPage(page);
  const { errors } = watch(page);
  await shop.open();
  const cdp = await memoryProbe(page);

  expect(await cycles(page, 1)).toBe(0);
  const first = await retained(cdp, page);
  expect(await cycles(page, CYCLES / 2 - 1)).toBe(0);
  const half = await retained(cdp, page);
  expect(await cycles(page, CYCLES / 2)).toBe(0);
  expectFlat(first, half, await retained(cdp, page));
  expect(errors).toEqual([]);
});

test("remounting in a tight loop (no await between mount and unmount) leaks nothing and throws nothing", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shop = new ShopPage(page);
  const { errors } = watch(page);
  await shop.open();
  const cdp = await memoryProbe(page);

  expect(await cycles(page, 1)).toBe(0);
  const first = await retained(cdp, page);
  expect(await cycles(page, CYCLES / 2 - 1, false)).toBe(0);
  const half = await retained(cdp, page);
  expect(await cycles(page, CYCLES / 2, false)).toBe(0);
  // The cancelled requests of the last cycles answer late; the instances they touch go with them.
  await expect
    .poll(async () => (await retained(cdp, page)).heap - half.heap, { timeout: 20_000 })
    .toBeLessThan(HALF_MARGIN);
  expectFlat(first, half, await retained(cdp, page));
  expect(errors).toEqual([]);
});

test("unmounting during a payment: nothing thrown into the page, the console says what became of it", async ({
  page,
}) => {
  const shop = new ShopPage(page);
  const { errors, warnings } = watch(page);
  await shop.open();
  await shop.chooseEvent("Family Theatre");
  await shop.addTickets("Category 1", "Adult", 1);
  await shop.addToCart();
  await shop.toDetails();
  await shop.fillBuyer("Anna", "Muster", "anna@example.ch");
  // The checkout is held on its way until the host has unmounted the shop.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/checkout$/, async (route) => {
    await held;
    await route.continue();
  });
  const sent = page.waitForRequest(/\/checkout$/);
  await shop.payByCard("4242424242424242");
  await sent;
  await page.locator("#remount").click();
  await expect.poll(() => warnings.join("\n")).toMatch(/unmounted during a payment/);
  release();
  // The purchase happened at the API: the host still hears of it; the new shop starts over, nothing broke.
  await expect(shop.log()).toContainText("onCheckoutComplete");
  await expect(shop.stepHeading(shop.t("events.heading"))).toBeVisible();
  expect(errors).toEqual([]);
});

test("two mounts on one container: one shop, the console names the misuse, nothing thrown, nothing left", async ({
  page,
}) => {
  const shop = new ShopPage(page);
  const { errors, warnings } = watch(page);
  await shop.open();
  const same = await page.evaluate(() => {
    const dev = (window as unknown as { entradaDev: EntradaDev }).entradaDev;
    const container = document.createElement("div");
    container.id = "twice";
    document.body.append(container);
    const handles = [dev.mount(container, dev.quietConfig()), dev.mount(container, dev.quietConfig())];
    Object.assign(window, { twice: handles });
    return handles[0] === handles[1];
  });
  expect(same).toBe(true);
  await expect(page.locator("#twice .entrada-shop__card").first()).toBeVisible();
  await expect(page.locator("#twice .entrada-shop")).toHaveCount(1);
  // The second unmount is on the same, already unmounted shop: it does nothing.
  await page.evaluate(() => {
    for (const handle of (window as unknown as { twice: Array<{ unmount(): void }> }).twice) handle.unmount();
  });
  await expect(page.locator("#twice > *")).toHaveCount(0);
  expect(warnings.join("\n")).toMatch(/already has a shop.*unmount\(\)/);
  expect(errors).toEqual([]);
});
