import { createElement as h } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { useId, useState, useSyncExternalStore } from "../src/preact/react";
import { createRoot, type Root } from "../src/preact/react-dom-client";

/** The script-tag build's React API on Preact (src/preact/), the parts preact/compat used to provide. */
const roots: Root[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) act(() => root.unmount());
  document.body.replaceChildren();
});

function rootIn(prefix?: string): { root: Root; element: HTMLElement } {
  const element = document.body.appendChild(document.createElement("div"));
  const root = createRoot(element, prefix === undefined ? {} : { identifierPrefix: prefix });
  roots.push(root);
  return { root, element };
}

function Field() {
  const id = useId();
  return h("label", { htmlFor: id, id: `${id}-label` }, "x");
}

const store = {
  value: 1,
  listeners: new Set<() => void>(),
  subscribe(listener: () => void) {
    store.listeners.add(listener);
    return () => store.listeners.delete(listener);
  },
  set(value: number) {
    store.value = value;
    for (const listener of store.listeners) listener();
  },
};

function View() {
  return h("p", null, String(useSyncExternalStore(store.subscribe, () => store.value)));
}

const seen: string[] = [];

function Form() {
  const [text, setText] = useState("");
  return h(
    "form",
    null,
    h("input", {
      value: text,
      onChange: (e: Event) => {
        const v = (e.currentTarget as HTMLInputElement).value;
        seen.push(`text:${v}`);
        setText(v.toUpperCase());
      },
    }),
    h("input", { type: "checkbox", onChange: () => seen.push("checkbox") }),
  );
}

describe("src/preact (script-tag build)", () => {
  it("useId: unique across roots with their identifierPrefix (Preact alone restarts at P0-0 per root)", () => {
    const a = rootIn("entrada-a-");
    const b = rootIn("entrada-b-");
    act(() => {
      a.root.render(h("div", null, h(Field, null), h(Field, null)));
      b.root.render(h(Field, null));
    });
    const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(a.element.querySelector("label")?.id.startsWith("entrada-a-")).toBe(true);
    expect(b.element.querySelector("label")?.id.startsWith("entrada-b-")).toBe(true);
  });

  it("useSyncExternalStore re-renders on a store notification and unsubscribes on unmount", () => {
    const { root, element } = rootIn();
    act(() => root.render(h(View, null)));
    expect(element.textContent).toBe("1");
    expect(store.listeners.size).toBe(1);
    act(() => store.set(2));
    expect(element.textContent).toBe("2");
    act(() => root.unmount());
    expect(store.listeners.size).toBe(0);
  });

  it("onChange on a text field fires on every input (React's meaning), on a checkbox on change", () => {
    seen.length = 0;
    const { root, element } = rootIn();
    act(() => root.render(h(Form, null)));
    const [text, checkbox] = element.querySelectorAll("input") as unknown as [
      HTMLInputElement,
      HTMLInputElement,
    ];
    act(() => {
      text.value = "a";
      text.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(seen).toEqual(["text:a"]);
    expect(text.value).toBe("A");
    act(() => {
      checkbox.dispatchEvent(new Event("input", { bubbles: true }));
      checkbox.click();
    });
    expect(seen).toEqual(["text:a", "checkbox"]);
  });
});
