import { LOCALES, type ShopConfig, type ShopHandle } from "./config";

const version: string = __ENTRADA_SHOP_VERSION__;

type Mount = (container: Element | string, config: ShopConfig) => ShopHandle;

declare global {
  interface Window {
    EntradaShop?: { mount: Mount; version: string; locales: typeof LOCALES };
  }
}

/** Both script-tag builds expose the same `window.EntradaShop`: `mount`, `version`, `locales`. */
export function expose(mount: Mount): void {
  if (typeof window !== "undefined") window.EntradaShop = { mount, version, locales: LOCALES };
}

export { LOCALES as locales, version };
