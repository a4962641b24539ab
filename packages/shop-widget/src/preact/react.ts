/**
 * The script-tag build's `react`: Preact (core and hooks) with the few React behaviours the widget and
 * @tanstack/react-query rely on, instead of preact/compat, to keep the first load small (`pnpm bench` measures
 * it). Used only through vite.script.config.ts's aliases; the npm build runs
 * on the host's React. What compat does and this does not (class-component lifecycles, `forwardRef`, `memo`,
 * portals, Suspense, SVG camelCase attributes, numeric `style` values) is not used by the widget.
 */
import { type ComponentChildren, createContext, createElement, options, type VNode } from "preact";
import { useContext, useEffect, useLayoutEffect, useId as usePreactId, useState } from "preact/hooks";

export { Component, createContext, createElement, Fragment } from "preact";
export {
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "preact/hooks";

/** The root's `identifierPrefix` (see react-dom-client.ts): Preact's own ids restart at `P0-0` in every root. */
export const IdPrefix = createContext("");

/** React's `useId`: unique in the document when every root has its own prefix (mount() gives one per widget). */
export function useId(): string {
  return useContext(IdPrefix) + usePreactId();
}

export function IdPrefixProvider({ prefix, children }: { prefix: string; children: ComponentChildren }) {
  return createElement(IdPrefix.Provider, { value: prefix }, children);
}

interface Store<T> {
  value: T;
  getSnapshot: () => T;
}

function changed<T>(store: Store<T>): boolean {
  try {
    return !Object.is(store.value, store.getSnapshot());
  } catch {
    return true;
  }
}

/**
 * React's `useSyncExternalStore` on Preact's hooks (the shape of React's own shim for React 17, as preact/compat
 * implements it): re-renders when the snapshot changes between render and subscription, or on a notification.
 */
export function useSyncExternalStore<T>(
  subscribe: (onChange: () => void) => () => void,
  getSnapshot: () => T,
): T {
  const value = getSnapshot();
  // `store` is one object for the component's life (state never replaced with another store).
  const [{ store }, forceUpdate] = useState({ store: { value, getSnapshot } as Store<T> });
  // biome-ignore lint/correctness/useExhaustiveDependencies: React's shim: a new subscribe re-checks too.
  useLayoutEffect(() => {
    store.value = value;
    store.getSnapshot = getSnapshot;
    if (changed(store)) forceUpdate({ store });
  }, [subscribe, value, getSnapshot]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `store` is stable (see above).
  useEffect(() => {
    if (changed(store)) forceUpdate({ store });
    return subscribe(() => {
      if (changed(store)) forceUpdate({ store });
    });
  }, [subscribe]);
  return value;
}

// React's `onChange` on a text field fires on every keystroke (the DOM's `input` event); the DOM's `change`
// fires only when the field loses focus. The widget's fields are written for React: map it as compat does.
const previous = options.vnode;
options.vnode = (vnode: VNode) => {
  const props = vnode.props as Record<string, unknown>;
  if (
    (vnode.type === "input" || vnode.type === "textarea") &&
    props.onChange !== undefined &&
    !/^(checkbox|radio|file)$/.test(String(props.type))
  ) {
    props.onInput = props.onChange;
    props.onChange = undefined;
  }
  previous?.(vnode);
};
