/**
 * Script-tag entry (ES module): Preact bundled (through src/preact/, see vite.script.config.ts), exposes
 * `window.EntradaShop.mount`. Small on purpose: `mount` starts the session token, the catalogue and the texts at once
 * and loads the shop's code (`ui/render.ts` and everything it imports, the `shop` chunk) in parallel, not before them.
 */
import type { ShopConfig, ShopHandle } from "./config";
import { startEarly } from "./early";
import { mountWith, type RendererSource } from "./mount-shell";
import { expose } from "./script-global";

const lazy: RendererSource = {
  load: () => import("./ui/render").then((m) => m.renderShop),
  early: startEarly,
};

/** `mount` of the npm build (see `mount.ts`), with the shop's code loaded on demand. */
export function mount(container: Element | string, config: ShopConfig): ShopHandle {
  return mountWith(container, config, lazy);
}

expose(mount);

export { locales, version } from "./script-global";
