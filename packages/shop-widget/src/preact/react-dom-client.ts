/** The script-tag build's `react-dom/client` (see react.ts): `createRoot` on Preact's `render`. */
import { type ComponentChild, createElement, render } from "preact";
import { IdPrefixProvider } from "./react";

export interface Root {
  render(children: ComponentChild): void;
  unmount(): void;
}

export function createRoot(container: Element, options: { identifierPrefix?: string } = {}): Root {
  const prefix = options.identifierPrefix ?? "";
  return {
    render: (children) => render(createElement(IdPrefixProvider, { prefix, children }), container),
    unmount: () => render(null, container),
  };
}
