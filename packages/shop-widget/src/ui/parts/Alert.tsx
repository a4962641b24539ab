import { type ReactNode, useEffect, useRef } from "react";

/**
 * A message the buyer must not miss (declined card, sold out, hold expired, connection lost): announced
 * (`role="alert"`), and it takes the focus and scrolls into view, so keyboard and screen-reader users land on
 * it instead of on `<body>` (where the focus falls when the button they pressed is disabled or replaced).
 * The focus moves only when it was in the widget or nowhere: an error never pulls it out of the host's page.
 * A passive effect, so it runs after the step heading's (which takes the focus after a navigation); `focusKey`
 * (the error) moves the focus again when the same message comes back for a new attempt.
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
  // biome-ignore lint/correctness/useExhaustiveDependencies: focusKey is the trigger, not read inside
  useEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const active = element.ownerDocument.activeElement;
    const root = element.closest(".entrada-shop");
    if (active === null || active === element.ownerDocument.body || (root?.contains(active) ?? false)) {
      element.focus({ preventScroll: true });
      element.scrollIntoView?.({ block: "nearest" });
    }
  }, [focusKey]);
  return (
    <div ref={ref} className={className} role="alert" tabIndex={-1}>
      {children}
    </div>
  );
}
