/**
 * The widget's stylesheets, injected once per document while at least one widget uses them (reference
 * counted, removed with the last one). Under a strict CSP pass `nonce`, or link `style.css` yourself and set
 * `injectStyles: false`.
 */
const sheets = new Map<string, { element: HTMLStyleElement; users: number }>();

export function acquireStyles(doc: Document, id: string, css: string, nonce: string | undefined): () => void {
  let sheet = sheets.get(id);
  if (sheet === undefined || !sheet.element.isConnected) {
    const element = doc.createElement("style");
    element.setAttribute("data-entrada-shop-styles", id);
    if (nonce !== undefined) element.nonce = nonce;
    element.textContent = css;
    doc.head.append(element);
    sheet = { element, users: 0 };
    sheets.set(id, sheet);
  }
  sheet.users += 1;
  const current = sheet;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    current.users -= 1;
    if (current.users === 0) {
      current.element.remove();
      if (sheets.get(id) === current) sheets.delete(id);
    }
  };
}
