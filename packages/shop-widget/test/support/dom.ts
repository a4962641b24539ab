import { screen, within } from "@testing-library/react";
import type userEvent from "@testing-library/user-event";
import { tx } from "./texts";

export type User = ReturnType<typeof userEvent.setup>;

/** Text as read, with Intl's no-break spaces as plain spaces. */
export const text = (element: Element) => (element.textContent ?? "").replace(/\u00a0/g, " ");

export function container(id = "tickets"): HTMLElement {
  const element = document.createElement("div");
  element.id = id;
  document.body.append(element);
  return element;
}

/** Opens the first event called `name` from the catalogue (English texts). */
export async function openEvent(user: User, name: string, root: HTMLElement = document.body) {
  const buttons = await within(root).findAllByRole(
    "button",
    { name: tx("events.chooseFor", { name }) },
    { timeout: 5000 },
  );
  await user.click(buttons[0] as HTMLElement);
  return within(root).findByRole("heading", { level: 2, name });
}

/** From the catalogue to the payment step: one ticket of `event` (an event without a survey), buyer filled in. */
export async function toPayment(user: User, event = "Family Theatre", root: HTMLElement = document.body) {
  const w = within(root);
  await openEvent(user, event, root);
  await user.click(w.getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
  await user.click(w.getByRole("button", { name: tx("event.add") }));
  await user.click(await w.findByRole("button", { name: tx("cart.next") }));
  await user.type(await w.findByLabelText(tx("details.firstName")), "Anna");
  await user.type(w.getByLabelText(tx("details.lastName")), "Muster");
  await user.type(w.getByLabelText(tx("details.email")), "anna@example.ch");
  await user.click(w.getByRole("button", { name: tx("details.next") }));
  await w.findByRole("heading", { level: 2, name: tx("payment.heading") });
}

export { screen, within };
