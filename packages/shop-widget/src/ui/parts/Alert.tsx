import { type ReactNode, useEffect, useRef } from "react";
import { useHandOnFocus } from "./focus";

/**
 * A message the buyer must not miss (declined card, sold out, hold expired, connection lost): announced
 * (`role="alert"`), and it takes the focus and scrolls into view, so keyboard and screen-reader users land on
 * it instead of on `<body>` (where the focus falls when the button they pressed is disabled or replaced).
 * The focus moves only when it was in the widget or nowhere: an error never pulls it out of the host's page.
 * A passive effect, so it runs after the step heading's (which takes the focus after a navigation); `focusKey`
 * (the error) moves the focus again when the same message comes back for a new attempt.
 *
 * When the message goes while it holds the focus (its "Try again" worked, a download succeeded), the focus goes
 * back to the control it came from, or, when that is gone too, to the step's heading: never to `<body>`.
 */
export function Alert({
  children,
  className = "entrada-shop__error",
  focusKey,
}: {
  children: ReactNode;
  className?: string;
  focusKey?: unknown;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const cameFrom = useRef<HTMLElement | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focusKey is the trigger, not read inside
  useEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const doc = element.ownerDocument;
    const active = doc.activeElement;
    const root = element.closest(".entrada-shop");
    if (active === null || active === doc.body || (root?.contains(active) ?? false)) {
      if (active !== doc.body && !element.contains(active)) cameFrom.current = active as HTMLElement | null;
      element.focus({ preventScroll: true });
      element.scrollIntoView?.({ block: "nearest" });
    }
  }, [focusKey]);
  useHandOnFocus(ref, () => cameFrom.current);
  return (
    <div ref={ref} className={className} role="alert" tabIndex={-1}>
      {children}
    </div>
  );
}
