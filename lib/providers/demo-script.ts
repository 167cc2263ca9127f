import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { Dialect } from "../protocol";
import { longAnswer } from "./demo-long-answer";
import {
  firstFile,
  isResultsMessage,
  type ResultItem,
  readResults,
  summariseResult,
} from "./demo-results";
import { EXAMPLE_PROMPTS, type Plan, planTools, wantsLongAnswer } from "./demo-rules";
import { findScenario, SCENARIOS, scenarioTurn } from "./demo-scenarios";
import { nextStep } from "./demo-steps";
import { call, encodeScripted, neutralise, respond, think } from "./wire";

/**
 * The demo model's whole "mind": prompt → the wire text of its next turn. Pure and
 * deterministic; the model adapter only streams what this returns.
 */
export function scriptTurn(dialect: Dialect, prompt: LanguageModelV3Prompt): string {
  const users = prompt
    .filter((message) => message.role === "user")
    .map((message) =>
      message.content.map((part) => (part.type === "text" ? part.text : "")).join(""),
    );
  const latest = users.at(-1);
  if (latest === undefined) return help(dialect, "There is no user message yet.");
  if (!isResultsMessage(dialect, latest)) return firstTurn(dialect, latest);

  // The request is the latest user message that is not a results message.
  let requestIndex = users.length - 1;
  while (requestIndex >= 0 && isResultsMessage(dialect, users[requestIndex] ?? "")) requestIndex--;
  const request = users[requestIndex] ?? "";
  const resultsSoFar = users.length - 1 - requestIndex;
  return answerTurn(dialect, request, latest, resultsSoFar);
}

function firstTurn(dialect: Dialect, text: string): string {
  const scenario = findScenario(text);
  if (scenario !== null) return scenarioTurn(dialect, scenario);
  const plan = planTools(text);
  // "Explain what the files are for" asks for words, not for a listing.
  if (wantsLongAnswer(text) && (plan === null || isPlainList(plan))) {
    return encodeScripted(dialect, [
      think("The user asked for an explanation; I'll write a long answer in Markdown."),
      respond(longAnswer(dialect)),
    ]);
  }
  if (plan === null) return help(dialect, "The user's message matches none of my rules.");
  return encodeScripted(dialect, [
    think(neutralise(dialect, plan.reason)),
    ...plan.calls.map((planned, index) => call(`call${index + 1}`, planned.name, planned.args)),
  ]);
}

function answerTurn(dialect: Dialect, request: string, results: string, round: number): string {
  const read = readResults(dialect, results);
  if (!read.ok) {
    return encodeScripted(dialect, [
      think("The results message could not be read."),
      respond(neutralise(dialect, `I could not read the tool results: ${read.error}`)),
    ]);
  }
  // Two-turn dependency scenario: `read` waits for what `list` found.
  if (dialect !== "action" && round === 1 && findScenario(request) === "dependencies") {
    const listed = read.items.find((item) => item.tool === "list" && item.status === "success");
    const file = listed === undefined ? null : firstFile(listed.content);
    if (file !== null) {
      return encodeScripted(dialect, [
        think(neutralise(dialect, `\`list\` found ${file}; this call depended on it.`)),
        call("file", "read", { file }),
      ]);
    }
  }
  // A multi-step plan: step `round + 1` reads what step `round` found.
  const step = planTools(request)?.nextSteps?.[round - 1];
  const next = step === undefined ? null : nextStep(step, read.items);
  if (next !== null && next.call !== null) {
    const { name, args } = next.call;
    return encodeScripted(dialect, [
      think(neutralise(dialect, next.reason)),
      call(`call${round + 1}`, name, args),
    ]);
  }
  const reason = next === null ? describeResults(read.items) : next.reason;
  return encodeScripted(dialect, [
    think(neutralise(dialect, reason)),
    respond(neutralise(dialect, read.items.map(summariseResult).join("\n\n") || "No results.")),
  ]);
}

function isPlainList(plan: Plan): boolean {
  return plan.nextSteps === undefined && plan.calls.length === 1 && plan.calls[0]?.name === "list";
}

function describeResults(items: readonly ResultItem[]): string {
  const failed = items.filter((item) => item.status !== "success").length;
  const count = `${items.length} ${items.length === 1 ? "result" : "results"}`;
  return failed === 0
    ? `${count} came back; I'll summarise them.`
    : `${count} came back, ${failed} not successful; I'll explain.`;
}

/** Every rule with an example, then every scenario: nothing the demo can do is hidden. */
function help(dialect: Dialect, why: string): string {
  const examples = EXAMPLE_PROMPTS.map((example) => `- "${example}"`).join("\n");
  const scenarios = SCENARIOS.map((scenario) => `- "demo: ${scenario}"`).join("\n");
  return encodeScripted(dialect, [
    think(`${why} I'll explain what I can do.`),
    respond(
      `I am the offline demo model: scripted rules, no AI. I pick tools from keywords in your message, plan two steps when you ask for two, and summarise the results. Try:\n${examples}\n\nScenarios that show the protocol at work (and at fault):\n${scenarios}`,
    ),
  ]);
}
