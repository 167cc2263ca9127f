import type { Dialect, ResultStatus } from "@/lib/protocol";
import { safeParseJson } from "@/lib/protocol/safe-json";
import type { ForkBody } from "./api";
import type { ForkTarget } from "./fork-target";

/** What the fork dialog does: edit the message, mock the result, or run on from the point. */
export type ForkMode = "edit" | "mock" | "rerun";

export interface ForkForm {
  mode: ForkMode;
  /** The edited message, the mock result (JSON, or plain text), or a message to continue with. */
  text: string;
  status: ResultStatus;
  /** null: as recorded. */
  dialect: Dialect | null;
  model: { provider: string; id: string } | null;
}

/** The modes a target offers, the first being the default. */
export function modesOf(target: ForkTarget): ForkMode[] {
  switch (target.kind) {
    case "user":
      return ["edit", "rerun"];
    case "call":
      return target.result === undefined ? ["rerun"] : ["mock", "rerun"];
    case "end":
      return ["rerun"];
  }
}

/** The text the dialog starts with: the message, or the result as pretty JSON. */
export function initialText(target: ForkTarget, mode: ForkMode): string {
  if (mode === "edit" && target.kind === "user") return target.content;
  if (mode === "mock" && target.kind === "call" && target.result !== undefined) {
    const { content } = target.result;
    return typeof content === "string" ? content : (JSON.stringify(content, null, 2) ?? "");
  }
  return "";
}

/** A mock result: JSON when it parses as JSON, else the text itself. */
export function mockContent(text: string): unknown {
  const parsed = safeParseJson(text);
  return parsed.ok ? parsed.value : text;
}

/**
 * The `POST /api/transcripts/:id/fork` body for a filled-in dialog (see
 * lib/transcripts/CONTEXT.md), and the message to send with the run, when there is one.
 */
export function forkRequestOf(
  target: ForkTarget,
  form: ForkForm,
): { body: ForkBody; message?: string } {
  const overrides = {
    ...(form.dialect === null ? {} : { dialect: form.dialect }),
    ...(form.model === null ? {} : { model: form.model }),
  };
  if (form.mode === "edit" && target.kind === "user")
    return { body: { at: target.at, editUserMessage: form.text.trim(), ...overrides } };
  if (form.mode === "mock" && target.kind === "call") {
    const editResult = {
      callId: target.callId,
      content: mockContent(form.text),
      status: form.status,
    };
    return { body: { at: target.at, editResult, ...overrides } };
  }
  const message = form.text.trim();
  return { body: { at: target.at, ...overrides }, ...(message === "" ? {} : { message }) };
}
