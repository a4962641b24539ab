/** Script-tag entry: Preact bundled (through src/preact/, see vite.script.config.ts), exposes `window.EntradaShop.mount`. */
import { LOCALES, mount, version } from "./index";

const api = { mount, version, locales: LOCALES };

declare global {
  interface Window {
    EntradaShop?: typeof api;
  }
}

if (typeof window !== "undefined") window.EntradaShop = api;

export { LOCALES as locales, mount, version };
