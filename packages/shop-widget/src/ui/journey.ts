import { useMemo, useRef, useState } from "react";
import type { Step } from "../config";
import { errorText } from "../core/error-text";
import { cartRef } from "../core/resume";
import {
  initialState,
  type Journey,
  type JourneyActions,
  type JourneyContext,
  type JourneyDeps,
  type JourneyState,
} from "./journey-state";

/**
 * The purchase journey: the buyer's state (kept across language switches, errors and step changes) and its
 * synchronous actions. What writes to the server is a TanStack mutation in the step that offers it
 * (`cart-mutations.ts`, `payment-mutations.ts`, loaded with the later steps): the first load stays the catalogue.
 */
export function useJourney(deps: JourneyDeps): Journey {
  const [state, setState] = useState<JourneyState>(() => {
    const initial = initialState(deps.controller.config.filters);
    const cartId = cartRef(deps.controller.instanceId);
    return cartId === undefined ? initial : { ...initial, cartId };
  });
  const depsRef = useRef(deps);
  depsRef.current = deps;
  const stateRef = useRef(state);
  stateRef.current = state;
  const cartKey = useRef<string | undefined>(undefined);
  const checkoutKey = useRef<{ key: string; fingerprint: string } | undefined>(undefined);

  const actions = useMemo<JourneyActions>(() => {
    const patch = (p: Partial<JourneyState>) => setState((s) => ({ ...s, ...p }));
    const goTo = (step: Step, extra: Partial<JourneyState> = {}) =>
      setState((s) => {
        const { error: _dropped, ...rest } = s;
        return { ...rest, ...extra, step, navigation: s.navigation + 1 };
      });
    const tell: JourneyContext["tell"] = (text, step, { error, retry } = {}) => {
      setState((s) => ({ ...s, error: { error, text, step, ...(retry ? { retry } : {}) } }));
      if (error !== undefined) depsRef.current.controller.reportError(error);
    };
    const fail = (error: unknown, step: Step, retry?: () => void) =>
      tell(errorText(error), step, { error, retry });
    const context: JourneyContext = {
      deps: () => depsRef.current,
      state: stateRef,
      setState,
      cartKey,
      checkoutKey,
      goTo,
      fail,
      tell,
    };

    return {
      goTo: (step) => {
        goTo(step);
        // view_cart / begin_checkout: the analytics helpers load with the later steps, which are on the way.
        void import("./journey-effects").then((m) => m.trackEntered(context, step));
      },
      setFilters: (filters) => patch({ filters }),
      openEvent: (eventId) => goTo("event", { eventId }),
      setSelection: (eventId, selection) =>
        setState((s) => ({ ...s, selections: { ...s.selections, [eventId]: selection } })),
      // A locked field keeps the host's value whatever else changes.
      setCustomer: (customer) =>
        setState((s) => ({
          ...s,
          customer: { ...customer, ...Object.fromEntries(s.locked.map((f) => [f, s.customer[f]])) },
        })),
      prefill: (values, locked) =>
        setState((s) => ({ ...s, customer: { ...s.customer, ...values }, locked })),
      setAnswers: (answers) => patch({ answers }),
      setProvider: (providerId) => patch({ providerId }),
      setCardNumber: (cardNumber) => patch({ cardNumber }),
      dismissError: () =>
        setState((s) => {
          const { error: _e, ...rest } = s;
          return rest;
        }),
      fail,
      forgetCart() {
        cartRef(depsRef.current.controller.instanceId, null);
        setState((s) => {
          const { cartId: _gone, ...rest } = s;
          return rest;
        });
      },
      restart() {
        cartKey.current = undefined;
        checkoutKey.current = undefined;
        setState((s) => ({
          ...initialState(s.filters),
          // The buyer (and what the host locked) stays for the next purchase.
          customer: s.customer,
          locked: s.locked,
          navigation: s.navigation + 1,
        }));
      },
      returnFromPayment: (info) => setState((s) => ({ ...s, step: "payment", returning: info })),
      context,
    };
  }, []);

  return useMemo(() => ({ ...state, ...actions }), [state, actions]);
}
