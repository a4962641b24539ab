/** React entry: `<EntradaShop {...config} />`, using the host's React 18 or 19. */

/** The SDK's error model, which `error` / `onError` report: switch on `kind`, and on `slug` for a problem. */
export {
  type EntradaError,
  type EntradaErrorKind,
  isEntradaError,
  isErrorKind,
  isProblem,
  type ProblemSlug,
} from "@entrada/sdk/shop";
export type {
  Appearance,
  Locale,
  ShopCallbacks,
  ShopConfig,
  Step,
} from "../config";
export type { FetchSessionToken, SessionTokenGrant, SessionTokenRequest } from "../core/http-shop-api";
export type { ShopApi } from "../core/shop-api";
export { EntradaShop, type EntradaShopProps } from "./EntradaShop";
