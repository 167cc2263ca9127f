import { render } from "@testing-library/react";
import { RawTurn } from "./raw-turn";
import type { Decoration } from "./segments";

const NO_ERRORS: readonly Decoration[] = [];

/** One finished turn of `raw` in the Raw view, nothing highlighted: its text element. */
export function renderRawTurn(raw: string, whitespace: boolean): HTMLElement {
  const { container } = render(
    <RawTurn
      turn={0}
      raw={raw}
      chunkCount={1}
      highlightStart={null}
      highlightEnd={null}
      highlightKind="hover"
      errors={NO_ERRORS}
      streaming={false}
      whitespace={whitespace}
      onPick={() => undefined}
    />,
  );
  return container.querySelector("[data-raw-text]") as HTMLElement;
}
