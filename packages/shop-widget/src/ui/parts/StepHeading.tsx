import { type ReactNode, useEffect, useRef } from "react";
import { useShop } from "../context";

/**
 * A step's heading. When the buyer navigated here, it takes focus so keyboard and screen-reader users land
 * at the start of the new content (never on the first render of the page: that would steal the host's focus).
 */
export function StepHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { navigation } = useShop().journey;
  useEffect(() => {
    if (navigation > 0) ref.current?.focus();
  }, [navigation]);
  return (
    <h2 ref={ref} tabIndex={-1} className="entrada-shop__heading">
      {children}
    </h2>
  );
}
