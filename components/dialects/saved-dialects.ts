"use client";

import { useSyncExternalStore } from "react";
import type { DialectDefinition } from "@/lib/protocol";
import type { DefinitionCheck } from "@/lib/protocol/definition-schema";

/**
 * Saved dialect definitions live in this browser's localStorage, not on the server: they
 * are a user's drafts, small and personal, and need no API to secure. What a run actually
 * used is kept in its transcript header (docs/dialects/custom.md), so replay, export and import never
 * depend on this list. Stored text is untrusted on the way back in: each entry is validated,
 * and an invalid one is skipped.
 *
 * The validator (zod schemas) is loaded on first use, not with the page: until it arrives the
 * list is empty and the switch shows the built-ins, then the saved ones appear.
 */
const KEY = "wirescope.dialects";
const EMPTY: readonly DialectDefinition[] = [];
const listeners = new Set<() => void>();
let cache: { raw: string | null; list: readonly DialectDefinition[] } | null = null;
type Validate = (input: unknown) => DefinitionCheck;
let validate: Validate | null = null;
let loading: Promise<Validate> | null = null;

function loadValidator(): Promise<Validate> {
  loading ??= import("@/lib/protocol/definition-schema").then(
    (module) => {
      validate = module.parseDefinition;
      cache = null;
      for (const listener of listeners) listener();
      return module.parseDefinition;
    },
    (error: unknown) => {
      // Asked for again at the next read (a network blip must not hide the list for good).
      loading = null;
      console.error("The saved dialects' validator did not load:", error);
      throw error;
    },
  );
  return loading;
}

function read(): readonly DialectDefinition[] {
  if (validate === null) {
    loadValidator().catch(() => {}); // logged there; tried again at the next read
    return EMPTY;
  }
  const raw = window.localStorage.getItem(KEY);
  if (cache !== null && cache.raw === raw) return cache.list;
  cache = { raw, list: decode(raw, validate) };
  return cache.list;
}

export function decode(raw: string | null, check: Validate): readonly DialectDefinition[] {
  if (raw === null) return EMPTY;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return EMPTY;
  }
  if (!Array.isArray(value)) return EMPTY;
  return value.flatMap((item) => {
    const checked = check(item);
    return checked.ok ? [checked.definition] : [];
  });
}

function write(list: readonly unknown[]): void {
  window.localStorage.setItem(KEY, JSON.stringify(list));
  for (const listener of listeners) listener();
}

/** The stored entries as they are, unchecked: a write keeps what it does not replace. */
function stored(): unknown[] {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

const nameOf = (item: unknown): unknown =>
  typeof item === "object" && item !== null ? (item as { name?: unknown }).name : undefined;

/** Saves `definition`, replacing a saved one of the same name. */
export function saveDefinition(definition: DialectDefinition): void {
  write([...stored().filter((item) => nameOf(item) !== definition.name), definition]);
}

export function removeDefinition(name: string): void {
  write(stored().filter((item) => nameOf(item) !== name));
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
