"use client";

import { useRef } from "react";
import { UploadIcon } from "./icons";
import { importFile } from "./import-file";
import { ICON_BUTTON } from "./transcript-item";

/** Picks a transcript file (JSONL, docs/transcript-file.md), or a raw text file (`.txt`, `.log`), and imports it. */
export function ImportButton() {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className={ICON_BUTTON}
        aria-label="Import a transcript"
        title="Import a transcript (.jsonl) or a model's raw text (.txt, .log)"
        onClick={() => input.current?.click()}
      >
        <UploadIcon />
      </button>
      <input
        ref={input}
        type="file"
        accept=".jsonl,.ndjson,.txt,.log,application/x-ndjson,application/jsonl,text/plain"
        className="hidden"
        data-testid="import-input"
        onChange={(change) => {
          const file = change.target.files?.[0];
          change.target.value = "";
          if (file !== undefined) void importFile(file);
        }}
      />
    </>
  );
}
