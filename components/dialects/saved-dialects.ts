"use client";

import "@/lib/client/zod-jitless";
import { useSyncExternalStore } from "react";
import { type DialectDefinition, parseDefinition } from "@/lib/protocol";

/**
 * Saved dialect definitions live in this browser's localStorage, not on the server: they
 * are a user's drafts, small and personal, and need no API to secure. What a run actually
 * used is kept in its transcript header (spec §4.5), so replay, export and import never
 * depend on this list. Stored text is untrusted on the way back in: each entry is validated,
 * and an invalid one is skipped.
 */
const KEY = "wirescope.dialects";
const EMPTY: readonly DialectDefinition[] = [];
const listeners = new Set<() => void>();
let cache: { raw: string | null; list: readonly DialectDefinition[] } | null = null;

function read(): readonly DialectDefinition[] {
  const raw = window.localStorage.getItem(KEY);
  if (cache !== null && cache.raw === raw) return cache.list;
  cache = { raw, list: decode(raw) };
  return cache.list;
}

export function decode(raw: string | null): readonly DialectDefinition[] {
  if (raw === null) return EMPTY;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return EMPTY;
  }
  if (!Array.isArray(value)) return EMPTY;
  return value.flatMap((item) => {
    const checked = parseDefinition(item);
    return checked.ok ? [checked.definition] : [];
  });
}

function write(list: readonly DialectDefinition[]): void {
  window.localStorage.setItem(KEY, JSON.stringify(list));
  for (const listener of listeners) listener();
}

/** Saves `definition`, replacing a saved one of the same name. */
export function saveDefinition(definition: DialectDefinition): void {
  write([...read().filter((saved) => saved.name !== definition.name), definition]);
}

export function removeDefinition(name: string): void {
  write(read().filter((saved) => saved.name !== name));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key === KEY && listener();
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The saved definitions, re-rendering on a change (in this tab or another). */
export function useSavedDefinitions(): readonly DialectDefinition[] {
  return useSyncExternalStore(subscribe, read, () => EMPTY);
}
