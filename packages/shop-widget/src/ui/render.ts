import { createElement } from "react";
import { createRoot } from "react-dom/client";
import type { ShopConfig, ShopEventMap } from "../config";
import type { Emitter } from "../core/emitter";
import type { EarlyStart } from "../early";
import { Controller } from "./controller";
import { adoptReads } from "./queries";
import { ShopRoot } from "./ShopRoot";

/** A rendered shop, as the mount shell drives it. */
export interface Rendered {
  render(config: ShopConfig): void;
  unmount(): void;
  /** A checkout is on its way to the API. */
  readonly paying: boolean;
}

/** What the mount shell owns before the shop renders: the instance's id, its emitter, what it started early. */
export interface Shell {
  instanceId: string;
  emitter: Emitter<ShopEventMap>;
  early?: EarlyStart | undefined;
}

/** Same transport: reads started with one config serve another. */
const sameTransport = (a: ShopConfig, b: ShopConfig) =>
  a.api === b.api &&
  a.baseUrl === b.baseUrl &&
  a.sessionToken === b.sessionToken &&
  a.fetchSessionToken === b.fetchSessionToken &&
  a.fetch === b.fetch;

/** Renders the shop into `host` (an element the shell added to the container and removes on unmount). */
export function renderShop(host: HTMLElement, config: ShopConfig, shell: Shell): Rendered {
  const early =
    shell.early !== undefined && sameTransport(shell.early.config, config) ? shell.early : undefined;
  if (early === undefined) shell.early?.abort();
  const controller = new Controller(early?.config ?? config, shell.instanceId, {
    emitter: shell.emitter,
    api: early?.api,
    i18n: early?.i18n,
  });
  if (early !== undefined) adoptReads(controller.queryClient, early.reads);
  // Prefixed ids: unique even next to a host React app running its own copy of React (script-tag build).
  const root = createRoot(host, { identifierPrefix: `entrada-${shell.instanceId}-` });
  const render = (current: ShopConfig) =>
    root.render(createElement(ShopRoot, { controller, config: current }));
  render(config);
  return {
    render,
    unmount() {
      root.unmount();
      controller.dispose();
    },
    get paying() {
      return controller.paying;
    },
  };
}
