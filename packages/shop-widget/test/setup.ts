import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// The widget is mounted like a host page mounts it (its own root, real async server state), not through
// Testing Library's render(): tests wait for what the user sees instead of wrapping updates in act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

// `findBy…`/`waitFor` give up after 5 s instead of 1 s: a journey step does several requests to the mock, and
// on a loaded 2-core CI machine running three test files at once 1 s is sometimes not enough (a limit on
// waiting, not a timed assertion: a passing step returns as soon as the element appears).
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  // Server-side tests run without a DOM.
  if (typeof document === "undefined") return;
  cleanup();
  sessionStorage.clear();
});
