"use client";

import { useEffect, useState } from "react";
import { usePlayground } from "@/state/playground-store";

/**
 * The store's `version`, updated at most once per animation frame. A run can deliver
 * thousands of records a second; the timeline and the debug views only need to catch up once
 * per frame, not re-render (and re-measure) per record. Hover and selection stay immediate.
 */
export function useFrameVersion(): number {
  const [version, setVersion] = useState(() => usePlayground.getState().version);
  useEffect(() => {
    let frame = 0;
    const catchUp = () => {
      frame = 0;
      setVersion(usePlayground.getState().version);
    };
    const unsubscribe = usePlayground.subscribe((state, previous) => {
      if (state.version === previous.version && state.log === previous.log) return;
      if (frame === 0) frame = requestAnimationFrame(catchUp);
    });
    // A change between the first render and this subscription.
    catchUp();
    return () => {
      unsubscribe();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, []);
  return version;
}
