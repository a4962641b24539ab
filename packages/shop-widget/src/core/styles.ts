/**
 * The widget's stylesheet, injected once per document while at least one widget is mounted (reference
 * counted, removed with the last one). Under a strict CSP pass `nonce`, or link `style.css` yourself and set
 * `injectStyles: false`.
 */
const ATTR = "data-entrada-shop-styles";
let users = 0;
let element: HTMLStyleElement | undefined;

export function acquireStyles(doc: Document, css: string, nonce: string | undefined): () => void {
  if (users === 0 || element === undefined || !element.isConnected) {
    element = doc.createElement("style");
    element.setAttribute(ATTR, "");
    if (nonce !== undefined) element.nonce = nonce;
    element.textContent = css;
    doc.head.append(element);
  }
  users += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    users -= 1;
    if (users === 0) {
      element?.remove();
      element = undefined;
    }
  };
}
