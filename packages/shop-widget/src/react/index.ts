/** React entry: `<EntradaShop {...config} />`, using the host's React 18 or 19. */

export type {
  Appearance,
  Locale,
  ShopCallbacks,
  ShopConfig,
  Step,
} from "../config";
export type { FetchSessionToken, SessionTokenGrant, SessionTokenRequest } from "../core/default-shop-api";
export * from "../core/errors";
export type { ShopApi } from "../core/shop-api";
export { EntradaShop, type EntradaShopProps } from "./EntradaShop";
