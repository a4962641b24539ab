import { type ComponentType, useEffect, useState } from "react";
import type { Step } from "../config";

type LaterStep = Exclude<Step, "events">;

// The later steps load on demand: the first load is the catalogue only.
const modules: Record<LaterStep, () => Promise<{ default: ComponentType }>> = {
  event: () => import("./steps/EventStep"),
  cart: () => import("./steps/CartStep"),
  details: () => import("./steps/DetailsStep"),
  payment: () => import("./steps/PaymentStep"),
  confirmation: () => import("./steps/ConfirmationStep"),
};
const loaded = new Map<LaterStep, ComponentType>();

/**
 * The component of a later step once its chunk is loaded (shared by every widget on the page), `undefined`
 * while it loads or for the catalogue. Plain state rather than `lazy`/`Suspense`, so the script-tag build's
 * renderer needs no Suspense (see src/preact/react.ts), and a chunk that fails to load is reported through
 * `onError` instead of throwing out of the tree. A new `attempt` (the buyer's "Try again") loads it again.
 */
export function useStepComponent(
  step: Step,
  onError: (error: unknown) => void,
  attempt = 0,
): ComponentType | undefined {
  const later = step === "events" ? undefined : step;
  const component = later === undefined ? undefined : loaded.get(later);
  const [, setLoads] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `attempt` is what re-runs the load.
  useEffect(() => {
    if (later === undefined || component !== undefined) return;
    let live = true;
    modules[later]().then(
      (module) => {
        loaded.set(later, module.default);
        if (live) setLoads((n) => n + 1);
      },
      (error: unknown) => live && onError(error),
    );
    return () => {
      live = false;
    };
  }, [later, component, onError, attempt]);
  return component;
}
