import type { ResultEvent } from "@/lib/protocol";
import { JsonBlock } from "./json-block";

const OUTCOME_TONE = {
  success: "text-fg-muted",
  failure: "text-danger",
  skipped: "text-warn",
} as const;

/** The result half of a call card: the one-line outcome, then the content. */
export function CallResult({ result }: { result: ResultEvent }) {
  const { payload } = result;
  const empty =
    payload.content === undefined ||
    payload.content === null ||
    payload.content === "" ||
    (typeof payload.content === "object" && Object.keys(payload.content).length === 0);
  return (
    <div className="flex flex-col gap-1" data-testid="call-result">
      <p className={`text-xs ${OUTCOME_TONE[payload.status]}`} data-testid="call-outcome">
        <span aria-hidden="true" className="mr-1 text-fg-subtle">
          →
        </span>
        {payload.outcome}
      </p>
      {empty ? null : (
        <JsonBlock value={payload.content} memoryKey={`${result.id}:content`} label="Result" />
      )}
    </div>
  );
}
