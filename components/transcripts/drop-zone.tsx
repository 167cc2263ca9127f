"use client";

import { useEffect, useState } from "react";
import { importFile } from "./import-file";

/** Dropping a file anywhere on the page imports it; an outline says where it will go. */
export function DropZone() {
  const [over, setOver] = useState(false);

  useEffect(() => {
    let depth = 0;
    const hasFiles = (drag: DragEvent) => drag.dataTransfer?.types.includes("Files") === true;
    const onEnter = (drag: DragEvent) => {
      if (!hasFiles(drag)) return;
      depth++;
      setOver(true);
    };
    const onLeave = (drag: DragEvent) => {
      if (!hasFiles(drag)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const onOver = (drag: DragEvent) => {
      if (hasFiles(drag)) drag.preventDefault();
    };
    const onDrop = (drag: DragEvent) => {
      if (!hasFiles(drag)) return;
      drag.preventDefault();
      depth = 0;
      setOver(false);
      const file = drag.dataTransfer?.files[0];
      if (file !== undefined) void importFile(file);
    };
    window.addEventListener("dragenter", onEnter);
    window.addEventListener("dragleave", onLeave);
    window.addEventListener("dragover", onOver);
    window.addEventListener("drop", onDrop);
    return () => {
      window.removeEventListener("dragenter", onEnter);
      window.removeEventListener("dragleave", onLeave);
      window.removeEventListener("dragover", onOver);
      window.removeEventListener("drop", onDrop);
    };
  }, []);

  if (!over) return null;
  return (
    <div
      className="pointer-events-none fixed inset-2 z-50 flex items-center justify-center rounded-lg border-2 border-dashed border-accent bg-bg/70"
      data-testid="drop-zone"
    >
      <p className="rounded-md bg-surface px-3 py-2 text-sm text-fg shadow-lg">
        Drop a transcript (.jsonl) or a model's raw text (.txt, .log) to import it
      </p>
    </div>
  );
}
