"use client";

import { useEffect } from "react";
import { replayEarlyInput } from "./early-input";

/**
 * Hands the input held before hydration to the page (`early-input.ts`). Placed after the page
 * in the root layout: its effect runs once the page above it has hydrated and set itself up.
 * Renders nothing.
 */
export function EarlyInputReplay() {
  useEffect(() => {
    void replayEarlyInput();
  }, []);
  return null;
}
