/**
 * The purchase journey's state and the shapes around it (a leaf: types and the initial state only). The hook that
 * keeps it is `journey.ts`; the mutations and their shared helpers take a `JourneyContext`.
 */
import type { BuyerField, Locale, Step } from "../config";
import type { ErrorText } from "../core/error-text";
import type { ReturnInfo } from "../core/resume";
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
