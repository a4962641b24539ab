import { useMemo, useRef, useState } from "react";
import type { BuyerField, Locale, Step } from "../config";
import { type ErrorText, errorText } from "../core/error-text";
import { cartRef, type ReturnInfo } from "../core/resume";
import type { SurveyAnswer } from "../core/survey";
import type { EventFilters, Money, Order } from "../core/types";
import type { Controller } from "./controller";

export interface CustomerDraft {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
}

export interface Selection {
  slotId?: string;
  quantities: Record<string, number>;
}

export interface JourneyError {
  /** What failed, as the call rejected: the SDK's `EntradaError` (none for an outcome no call reports). */
  error?: unknown;
  /** What the buyer is told (`errors.<text>`). */
  text: ErrorText;
  /** The step the error is shown on. */
  step: Step;
  /** Runs the failed action again (same idempotency key where it matters). */
  retry?: () => void;
}

export interface JourneyState {
  step: Step;
  filters: EventFilters;
  eventId?: string;
  cartId?: string;
  selections: Record<string, Selection>;
  customer: CustomerDraft;
  /** Fields the host prefilled and locked (`lockBuyer`): read-only, sent as given. */
  locked: BuyerField[];
  answers: Record<string, SurveyAnswer>;
  providerId?: string;
  cardNumber: string;
  order?: Order;
  error?: JourneyError;
  /** Back from a payment page: the payment being confirmed (polled) on the payment step. */
  returning?: ReturnInfo;
  /** Bumped on every navigation the buyer caused: the new step's heading takes focus. */
  navigation: number;
}

export function initialState(filters: EventFilters = {}): JourneyState {
  return {
    step: "events",
    filters,
    selections: {},
    customer: { firstName: "", lastName: "", email: "", phone: "", company: "" },
    locked: [],
    answers: {},
    cardNumber: "",
    navigation: 0,
  };
}

export interface JourneyActions {
  goTo(step: Step): void;
  setFilters(filters: EventFilters): void;
  openEvent(eventId: string): void;
  setSelection(eventId: string, selection: Selection): void;
  setCustomer(customer: CustomerDraft): void;
  /** The host's (validated) `buyer` values into the draft, and which of them are locked. */
  prefill(values: Partial<CustomerDraft>, locked: BuyerField[]): void;
  setAnswers(answers: Record<string, SurveyAnswer>): void;
  setProvider(providerId: string): void;
  setCardNumber(cardNumber: string): void;
  restart(): void;
  dismissError(): void;
  /** The cart is gone (completed elsewhere, expired, unknown): start without one. */
  forgetCart(): void;
  fail(error: unknown, step: Step, retry?: () => void): void;
  /** Back from a payment page: show the payment step while the payment is confirmed. */
  returnFromPayment(info: ReturnInfo): void;
  /** What the server writes (the cart and payment mutations, src/ui/*-mutations.ts) work with. */
  context: JourneyContext;
}

export type Journey = JourneyState & JourneyActions;

export interface JourneyDeps {
  controller: Controller;
  locale: Locale;
  announce(text: string): void;
  texts: {
    added(total: string): string;
    changed(name: string, count: number, total: string): string;
    removed(name: string, total: string): string;
  };
  money(money: Money): string;
}

/** What the lazily loaded actions work with. */
export interface JourneyContext {
  deps(): JourneyDeps;
  state: { current: JourneyState };
  setState(update: (state: JourneyState) => JourneyState): void;
  /** One key per cart creation, so a retried or doubled create yields the same cart. */
  cartKey: { current: string | undefined };
  /** The checkout key is reused only when the same attempt is retried after a network failure. */
  checkoutKey: { current: { key: string; fingerprint: string } | undefined };
  goTo(step: Step, extra?: Partial<JourneyState>): void;
  /** Shows what a call rejected with on `step` (its text from the SDK's error) and tells the host. */
  fail(error: unknown, step: Step, retry?: () => void): void;
  /**
   * Shows `text` on `step` for an outcome no call reports as an error (a payment that did not complete, a locked
   * detail the API refused); the SDK's error behind it, if there is one, goes to the host.
   */
  tell(text: ErrorText, step: Step, options?: { error?: unknown; retry?: (() => void) | undefined }): void;
}

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
        void import("./journey-actions").then((m) => m.trackEntered(context, step));
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
