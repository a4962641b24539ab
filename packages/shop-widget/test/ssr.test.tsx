// @vitest-environment node
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

describe("on a server", () => {
  it("imports both entries without a DOM and renders the React component to HTML", async () => {
    expect(typeof document).toBe("undefined");
    const vanilla = await import("../src/index");
    const react = await import("../src/react/index");
    expect(typeof vanilla.mount).toBe("function");
    const html = renderToString(
      createElement(react.EntradaShop, { baseUrl: "https://api.example.test", sessionToken: "t" }),
    );
    // The root and a busy placeholder; the shop starts in the browser (no requests during server rendering).
    expect(html).toMatch(
      /^<div class="entrada-shop" data-theme="light" lang="de-CH"><p class="entrada-shop__loading entrada-shop__loading--shop" aria-busy="true">/,
    );
  });

  it("mount() explains that it needs a browser", async () => {
    const { mount } = await import("../src/index");
    expect(() => mount("#shop", {})).toThrow(/no DOM/);
  });
});
