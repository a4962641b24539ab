import { createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import type { ShopConfig, ShopEventMap, ShopHandle } from "./config";
import { Controller } from "./ui/controller";
import { ShopRoot } from "./ui/ShopRoot";

interface Mounted {
  handle: ShopHandle;
}

/** Widgets by container: `mount()` twice on one container returns the first handle (updated). */
const mounted = new WeakMap<Element, Mounted>();

/** The instance id that namespaces resume records and return URLs: explicit, else the container's id. */
export function instanceIdFor(container: Element, config: ShopConfig): string {
  return config.instanceId ?? (container.id !== "" ? container.id : "shop");
}

function resolveContainer(container: Element | string): Element {
  if (typeof document === "undefined") {
    throw new Error(
      "EntradaShop.mount: no DOM here (call mount in the browser, not during server rendering)",
    );
  }
  const element = typeof container === "string" ? document.querySelector(container) : container;
  if (!(element instanceof Element)) {
    throw new Error(
      `EntradaShop.mount: container ${typeof container === "string" ? `"${container}" ` : ""}not found`,
    );
  }
  return element;
}

/**
 * Mount the shop into `container` (an element or a selector). Calling it again on the same container
 * returns the existing handle with the new config applied (no second widget, no reset of the journey).
 *
 * @example
 * const shop = mount("#tickets", { baseUrl: "https://api.example.com", fetchSessionToken, locale: "fr-CH" });
 * shop.update({ locale: "de-CH" });
 * shop.unmount();
 */
export function mount(container: Element | string, config: ShopConfig): ShopHandle {
  const element = resolveContainer(container);
  const existing = mounted.get(element);
  if (existing !== undefined) {
    console.warn(
      "EntradaShop.mount: this container already has a shop; its handle is returned with the new config applied (no second shop). Call unmount() on it first to start a new one.",
      element,
    );
    existing.handle.update(config);
    return existing.handle;
  }

  let current: ShopConfig = { ...config };
  const instanceId = instanceIdFor(element, current);
  const controller = new Controller(current, instanceId);
  // React's root listeners live on this host node; removing it on unmount leaves the container as it was.
  const host = element.ownerDocument.createElement("div");
  host.className = "entrada-shop-host";
  element.append(host);
  // Prefixed ids: unique even next to a host React app running its own copy of React (script-tag build).
  let root: Root | undefined = createRoot(host, { identifierPrefix: `entrada-${instanceId}-` });
  const render = () => root?.render(createElement(ShopRoot, { controller, config: current }));
  render();

  let warnedUnmounted = false;
  const unmounted = (what: string) => {
    if (!warnedUnmounted)
      console.warn(`EntradaShop: ${what}() on a shop that was unmounted; nothing happens.`);
    warnedUnmounted = true;
  };
  const handle: ShopHandle = {
    update(partial) {
      if (root === undefined) return unmounted("update");
      current = { ...current, ...partial };
      render();
    },
    unmount() {
      if (root === undefined) return;
      if (controller.paying) {
        console.warn(
          "EntradaShop: unmounted during a payment. The payment goes on at the API and its outcome still reaches onCheckoutComplete or onError, but no payment page is opened and the shop no longer shows it.",
        );
      }
      root.unmount();
      root = undefined;
      host.remove();
      controller.dispose();
      mounted.delete(element);
    },
    on<K extends keyof ShopEventMap>(event: K, listener: (payload: ShopEventMap[K]) => void) {
      return controller.emitter.on(event, listener);
    },
  };
  mounted.set(element, { handle });
  return handle;
}
