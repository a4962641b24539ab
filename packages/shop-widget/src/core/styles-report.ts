/**
 * The console error for a widget whose stylesheet does not apply (see checkStylesApplied in styles.ts), in its
 * own chunk: the widget loads it only on a page that needs it.
 */
export function reportUnstyled(injected: boolean): void {
  console.error(
    injected
      ? "EntradaShop: the widget's stylesheet was blocked, probably by the page's Content-Security-Policy " +
          "(style-src). Pass the page's CSP nonce as the `nonce` option, or link the stylesheet yourself " +
          '(<link rel="stylesheet" href=".../shop-widget.css">, from a `style-src` source) and set `injectStyles: false`.'
      : "EntradaShop: `injectStyles: false`, but the widget's stylesheet is not on the page. Link it: " +
          '<link rel="stylesheet" href=".../@entrada/shop-widget/dist/shop-widget.css">.',
  );
}
