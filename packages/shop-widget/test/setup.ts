import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

// React's act() environment flag, so state updates inside tests are flushed and warnings are real.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});
