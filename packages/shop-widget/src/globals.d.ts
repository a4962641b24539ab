/** Replaced at build time (vite `define`) with the package version. */
declare const __ENTRADA_SHOP_VERSION__: string;

declare module "*.css?inline" {
  const css: string;
  export default css;
}
