import { CodeView } from "../code-view";
import { contentText } from "../format";

/** A value as the cards show it: strings as text, anything else as highlighted JSON. */
export function JsonBlock({
  value,
  memoryKey,
  label,
}: {
  value: unknown;
  memoryKey: string;
  label: string;
}) {
  return (
    <CodeView
      text={contentText(value)}
      json={typeof value !== "string"}
      memoryKey={memoryKey}
      label={label}
    />
  );
}
