"use client";

import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from "react";

/**
 * What the user opened or closed, by key (`<event id>:<part>`). The timeline is virtualized,
 * so a card scrolled out of view unmounts; its choices live here, above the list, and come
 * back when it scrolls in again.
 */
const CardMemory = createContext<Map<string, boolean> | null>(null);

export function CardMemoryProvider({ children }: { children: ReactNode }) {
  const memory = useRef(new Map<string, boolean>());
  return <CardMemory.Provider value={memory.current}>{children}</CardMemory.Provider>;
}

/** The user's choice for `key` (null until they make one) and a setter that remembers it. */
export function useRemembered(key: string): [boolean | null, (value: boolean) => void] {
  const memory = useContext(CardMemory);
  const [value, setValue] = useState<boolean | null>(() => memory?.get(key) ?? null);
  const remember = useCallback(
    (next: boolean) => {
      memory?.set(key, next);
      setValue(next);
    },
    [memory, key],
  );
  return [value, remember];
}
