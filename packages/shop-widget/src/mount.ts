import type { ShopConfig, ShopHandle } from "./config";
import { mountWith } from "./mount-shell";
import { renderShop } from "./ui/render";

export { instanceIdFor } from "./mount-shell";

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
  return mountWith(container, config, renderShop);
}
