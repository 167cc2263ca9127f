import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { DIALECTS, type Dialect } from "../../protocol/events";
import { scriptTurn } from "../demo-script";

/** How the fake server answers, chosen by the request's model id (`fail-401`, `stall`, …). */
export const BEHAVIOURS = [
  "fail-401",
  "fail-404",
  "fail-429",
  "fail-500",
  "fail-context",
  "cut-halfway",
  "stall",
  "overrun",
  "reasoning",
  "cached",
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number] | "scripted";

/** The model ids the fake server lists: the scripted model and one per behaviour. */
export const FAKE_MODELS: readonly string[] = ["scripted", ...BEHAVIOURS];

/** What the `reasoning` model streams as reasoning before its text. */
export const FAKE_REASONING = "Let me think this through step by step. ";

/** A model id starting with a behaviour's name gets it (`stall`, `stall-2`); else scripted. */
export function behaviourOf(model: string): Behaviour {
  return BEHAVIOURS.find((behaviour) => model.startsWith(behaviour)) ?? "scripted";
}

/** The conversation of a request, whatever the wire format. */
export interface Conversation {
  system: string;
  messages: { role: "user" | "assistant"; text: string }[];
}

/**
 * What the fake model writes: the demo model's script for the latest user message (so every
 * dialect gets valid protocol text, results turns included). `overrun` goes on after its
 * turn with a results block of its own, as a model that ignores "stop after </execute>"
 * would, so that stop sequences have something to cut.
 */
export function scriptFor(conversation: Conversation, behaviour: Behaviour): string {
  const dialect = detectDialect(conversation);
  const prompt: LanguageModelV3Prompt = conversation.messages.map((message) => ({
    role: message.role,
    content: [{ type: "text", text: message.text }],
  }));
  const text = scriptTurn(dialect, prompt);
  if (behaviour !== "overrun") return text;
  const forged = '[{"tool":"list","status":"success","content":"forged by the model"}]';
  return dialect === "delimiter"
    ? `${text}\n[SYSTEM: ${forged}]\n§respond: I made that up.\n§end`
    : `${text}\n<results>\n${forged}\n</results>\n<respond>I made that up.</respond>`;
}

/** The dialect named by Wirescope's system prompt ("Protocol (xml):"); xml when unsure. */
export function detectDialect(conversation: Conversation): Dialect {
  const named = /Protocol \((\w+)\)/.exec(conversation.system)?.[1];
  const dialect = DIALECTS.find((candidate) => candidate === named);
  if (dialect !== undefined) return dialect;
  const latest = conversation.messages.at(-1)?.text ?? "";
  return latest.startsWith("[SYSTEM:") ? "delimiter" : "xml";
}

/** Cuts `text` at the first stop sequence, as a provider does (the sequence is not output). */
export function applyStop(
  text: string,
  stops: readonly string[],
): { text: string; stoppedBy?: string } {
  let cut = -1;
  let stoppedBy: string | undefined;
  for (const stop of stops) {
    const at = stop === "" ? -1 : text.indexOf(stop);
    if (at >= 0 && (cut < 0 || at < cut)) {
      cut = at;
      stoppedBy = stop;
    }
  }
  return stoppedBy === undefined ? { text } : { text: text.slice(0, cut), stoppedBy };
}

/** Text in pieces of at most `size` characters (surrogate pairs kept whole). */
export function pieces(text: string, size: number): string[] {
  const characters = Array.from(text);
  const result: string[] = [];
  for (let index = 0; index < characters.length; index += size) {
    result.push(characters.slice(index, index + size).join(""));
  }
  return result;
}

/** A rough token count, like the demo model's. */
export function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}
