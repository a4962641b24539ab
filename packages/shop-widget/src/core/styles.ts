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

const reported = new WeakSet<Document>();

const reportUnstyledFailed = (): void => console.error("EntradaShop: the widget's stylesheet does not apply");

/**
 * Says so, once per page, when the widget's stylesheet does not apply to `root` — typically a strict
 * Content-Security-Policy blocking the injected `<style>` (no `nonce` given), or `injectStyles: false` without
 * the stylesheet linked. The widget still works unstyled; the console tells the developer how to fix it.
 * A linked stylesheet may still be loading: then the check waits for the page's `load` event.
 */
export function checkStylesApplied(root: HTMLElement, injected: boolean): () => void {
  const doc = root.ownerDocument;
  const view = doc.defaultView;
  if (view === null) return () => {};
  const check = () => {
    if (!root.isConnected || reported.has(doc)) return;
    if (view.getComputedStyle(root).getPropertyValue("--entrada-styled").trim() !== "") return;
    reported.add(doc);
    // The message's text loads only when it is needed (it is most of this module's weight).
    import("./styles-report").then(({ reportUnstyled }) => reportUnstyled(injected), reportUnstyledFailed);
  };
  if (injected || doc.readyState === "complete") {
    check();
    return () => {};
  }
  view.addEventListener("load", check, { once: true });
  return () => view.removeEventListener("load", check);
}
