import type { ShopConfig, ShopEventMap, ShopHandle } from "./config";
import { Emitter, reportListenerError } from "./core/emitter";
import type { EarlyStart } from "./early";
import type { Rendered, Shell } from "./ui/render";

/** Renders the shop into the shell's host element (`ui/render.ts`). */
export type RenderShop = (host: HTMLElement, config: ShopConfig, shell: Shell) => Rendered;

/**
 * Where the shell gets the renderer: at once (the npm build: it is in the host's bundle already), or loaded on
 * demand with what can start before it arrives (the script tag: the renderer is most of the code).
 */
export type RendererSource =
  | RenderShop
  | { load(): Promise<RenderShop>; early(config: ShopConfig, instanceId: string): EarlyStart };

/** Widgets by container: `mount()` twice on one container returns the first handle (updated). */
const mounted = new WeakMap<Element, ShopHandle>();

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

/** `mount()` with the renderer from `source`: see `mount.ts` (npm) and `script.ts` (script tag). */
export function mountWith(
  container: Element | string,
  config: ShopConfig,
  source: RendererSource,
): ShopHandle {
  const element = resolveContainer(container);
  const existing = mounted.get(element);
  if (existing !== undefined) {
    console.warn(
      "EntradaShop.mount: this container already has a shop; its handle is returned with the new config applied (no second shop). Call unmount() on it first to start a new one.",
      element,
    );
    existing.update(config);
    return existing;
  }

  let current: ShopConfig = { ...config };
  const instanceId = instanceIdFor(element, current);
  const emitter = new Emitter<ShopEventMap>();
  // The renderer's root listeners live on this host node; removing it on unmount leaves the container as it was.
  const host = element.ownerDocument.createElement("div");
  host.className = "entrada-shop-host";
  element.append(host);
  let rendered: Rendered | undefined;
  let early: EarlyStart | undefined;
  let gone = false;
  if (typeof source === "function") {
    rendered = source(host, current, { instanceId, emitter });
  } else {
    // After the calling task: a shop unmounted at once (a host remounting in a loop) asks for nothing.
    queueMicrotask(() => {
      if (gone) return;
      early = source.early(current, instanceId);
      source.load().then(
        (render) => {
          if (gone) return;
          rendered = render(host, current, { instanceId, emitter, early });
        },
        (error: unknown) => {
          // The shop's code did not load (offline, blocked): there is nothing to show the buyer; the host hears it.
          early?.abort();
          if (!gone) reportListenerError(error);
        },
      );
    });
  }

  let warnedUnmounted = false;
  const unmounted = (what: string) => {
    if (!warnedUnmounted)
      console.warn(`EntradaShop: ${what}() on a shop that was unmounted; nothing happens.`);
    warnedUnmounted = true;
  };
  const handle: ShopHandle = {
    update(partial) {
      if (gone) return unmounted("update");
      current = { ...current, ...partial };
      rendered?.render(current);
    },
    unmount() {
      if (gone) return;
      gone = true;
      if (rendered?.paying) {
        console.warn(
          "EntradaShop: unmounted during a payment. The payment goes on at the API and its outcome still reaches onCheckoutComplete or onError, but no payment page is opened and the shop no longer shows it.",
        );
      }
      // Unmounted before the shop's code arrived: what started early is cancelled or ignored.
      if (rendered === undefined) early?.abort();
      rendered?.unmount();
      rendered = undefined;
      host.remove();
      emitter.clear();
      mounted.delete(element);
    },
    on<K extends keyof ShopEventMap>(event: K, listener: (payload: ShopEventMap[K]) => void) {
      return emitter.on(event, listener);
    },
  };
  mounted.set(element, handle);
  return handle;
}
