import { useEffect, useRef, useState } from "react";
import type { ShopConfig } from "../config";
import { Controller } from "../ui/controller";
import { ShopRoot } from "../ui/ShopRoot";

export type EntradaShopProps = ShopConfig;

/**
 * The shop as a React component. Config props apply live (locale, appearance, callbacks, token).
 * StrictMode-safe: one controller per component instance; its query cache dedupes the double effects.
 *
 * @example
 * <EntradaShop baseUrl="https://api.example.com" fetchSessionToken={getToken} locale="it-CH" />
 */
export function EntradaShop(props: EntradaShopProps) {
  const [controller] = useState(() => new Controller(props, props.instanceId ?? "shop"));
  // Dispose after a real unmount only: StrictMode's simulated unmount is followed at once by a re-mount,
  // which cancels the pending disposal (so no query is refetched and nothing is lost).
  const disposal = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    clearTimeout(disposal.current);
    return () => {
      disposal.current = setTimeout(() => controller.dispose(), 0);
    };
  }, [controller]);
  return <ShopRoot controller={controller} config={props} />;
}
