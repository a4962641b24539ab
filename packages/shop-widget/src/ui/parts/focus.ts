import { type RefObject, useLayoutEffect } from "react";

/**
 * Focuses `target` if the focus was lost (WCAG 2.4.3: a removed control hands it to its successor): on `<body>`
 * (where browsers put it when the focused control is removed or disabled), or on an element no longer in the page.
 * Only then: a buyer who moved on meanwhile keeps their place.
 */
export function regainFocus(target: HTMLElement | null | undefined): void {
  const active = target?.ownerDocument.activeElement;
  if (target && (!active || active === target.ownerDocument.body || !active.isConnected)) target.focus();
}

/**
 * When the element in `ref` goes while it (or a control in it) holds the focus, the focus goes to `successor()`
 * if it is still there and enabled, else to the step's heading, once React has committed. A layout cleanup runs
 * while the element is still in the page, so it sees where the focus is; nothing moves after the widget unmounted.
 */
export function useHandOnFocus(
  ref: RefObject<HTMLElement | null>,
  successor: () => HTMLElement | null | undefined = () => undefined,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per element; `successor` reads refs when called
  useLayoutEffect(() => {
    const element = ref.current;
    const root = element?.closest(".entrada-shop");
    return () => {
      if (!element?.contains(element.ownerDocument.activeElement)) return;
      queueMicrotask(() => {
        const next = successor();
        if (root?.isConnected)
          regainFocus(
            next?.isConnected && !(next as HTMLButtonElement).disabled ? next : root.querySelector("h2"),
          );
      });
    };
  }, []);
}
