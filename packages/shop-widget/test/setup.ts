import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

// The widget is mounted like a host page mounts it (its own root, real async server state), not through
// Testing Library's render(): tests wait for what the user sees instead of wrapping updates in act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

afterEach(() => {
  // Server-side tests run without a DOM.
  if (typeof document === "undefined") return;
  cleanup();
  sessionStorage.clear();
});
