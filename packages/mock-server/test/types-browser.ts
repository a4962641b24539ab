// Type-only view of the browser entry (its module needs a DOM at runtime).
import type { startBrowserMock } from "../src/browser/index.ts";

export const browserTypes = {} as { start: typeof startBrowserMock };
