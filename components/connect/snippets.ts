/** What the "Connect an agent" panel shows: ready-to-paste code for a base URL. Pure. */
import { assertNever } from "@/lib/protocol/events";

export type SnippetKind = "openai-sdk" | "ai-sdk" | "curl" | "env";

export const SNIPPET_LABEL: Record<SnippetKind, string> = {
  "openai-sdk": "OpenAI SDK",
  "ai-sdk": "AI SDK",
  curl: "curl",
  env: "Environment",
};

/** The snippet for an OpenAI-format base URL, or the Anthropic one when `anthropic`. */
export function snippetFor(kind: SnippetKind, baseURL: string, anthropic: boolean): string {
  switch (kind) {
    case "openai-sdk":
      return anthropic
        ? `import Anthropic from "@anthropic-ai/sdk";

const client = new Anthropic({
  baseURL: "${baseURL.replace(/\/v1$/, "")}",
  // Optional: every call of this client joins one transcript.
  defaultHeaders: { "x-wirescope-session": "my-agent" },
});`
        : `import OpenAI from "openai";

const client = new OpenAI({
  baseURL: "${baseURL}",
  // Optional: every call of this client joins one transcript.
  defaultHeaders: { "x-wirescope-session": "my-agent" },
});`;
    case "ai-sdk":
      return anthropic
        ? `import { createAnthropic } from "@ai-sdk/anthropic";

const anthropic = createAnthropic({ baseURL: "${baseURL}" });
const model = anthropic("claude-sonnet-4-6");`
        : `import { createOpenAICompatible } from "@ai-sdk/openai-compatible";

const provider = createOpenAICompatible({
  name: "via-wirescope",
  baseURL: "${baseURL}",
  apiKey: process.env.OPENAI_API_KEY,
  // Optional: auto (the default), xml, delimiter, action or hermes.
  headers: { "x-wirescope-dialect": "auto" },
});
const model = provider.chatModel("gpt-4.1-mini");`;
    case "curl":
      return anthropic
        ? `curl ${baseURL}/messages \\
  -H "x-api-key: $ANTHROPIC_API_KEY" -H "anthropic-version: 2023-06-01" \\
  -H "content-type: application/json" \\
  -d '{"model":"claude-sonnet-4-6","max_tokens":512,"stream":true,
       "messages":[{"role":"user","content":"list the files"}]}'`
        : `curl ${baseURL}/chat/completions \\
  -H "authorization: Bearer $OPENAI_API_KEY" \\
  -H "content-type: application/json" \\
  -d '{"model":"gpt-4.1-mini","stream":true,
       "messages":[{"role":"user","content":"list the files"}]}'`;
    case "env":
      return anthropic
        ? `ANTHROPIC_BASE_URL=${baseURL.replace(/\/v1$/, "")}`
        : `OPENAI_BASE_URL=${baseURL}`;
    default:
      return assertNever(kind, "snippet");
  }
}
