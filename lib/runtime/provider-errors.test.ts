import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import type { TurnPart } from "./model-turn";
import {
  describeFailures,
  describeProviderError,
  type ProviderErrorContext,
  ProviderFailure,
} from "./provider-errors";
import { StreamIdleError } from "./stream-idle";

const context: ProviderErrorContext = {
  label: "OpenAI",
  model: "gpt-5.5",
  keyVariable: "OPENAI_API_KEY",
  baseURL: "http://127.0.0.1:9/v1",
  baseURLVariable: "OPENAI_BASE_URL",
  secrets: ["planted-secret-value"],
};

function apiError(statusCode: number | undefined, message: string, extra: object = {}) {
  return new APICallError({
    message,
    url: "http://127.0.0.1:9/v1/chat/completions",
    requestBodyValues: {},
    ...(statusCode === undefined ? {} : { statusCode }),
    ...extra,
  });
}

describe("describeProviderError", () => {
  it.each([
    [
      apiError(401, "Incorrect API key provided: planted-secret-value"),
      /rejected the API key \(HTTP 401: Incorrect API key provided: \[redacted\]\)\. Check OPENAI_API_KEY/,
    ],
    [apiError(403, "forbidden"), /refused access to "gpt-5\.5".*check OPENAI_API_KEY/],
    [apiError(404, "no such model"), /does not know the model "gpt-5\.5"/],
    [
      apiError(429, "slow down", { responseHeaders: { "retry-after": "20" } }),
      /rate limiting.*Wait 20 s/,
    ],
    [
      apiError(500, "boom"),
      /had a server error \(HTTP 500: boom\)\. The problem is on the provider's side/,
    ],
    [apiError(529, "Overloaded"), /is overloaded \(HTTP 529/],
    [
      apiError(400, "bad", { responseBody: '{"error":{"code":"context_length_exceeded"}}' }),
      /longer than "gpt-5\.5"'s context window/,
    ],
    [apiError(400, "temperature out of range"), /refused the request \(HTTP 400.*call settings/],
    [
      apiError(undefined, "Cannot connect to API: connect ECONNREFUSED 127.0.0.1:9"),
      /Could not reach OpenAI at http:\/\/127\.0\.0\.1:9\/v1 .*OPENAI_BASE_URL points at it/,
    ],
    [new StreamIdleError(60_000), /sent nothing for 60 s.*WIRESCOPE_STREAM_IDLE_TIMEOUT_MS/],
    [
      new TypeError("terminated", {
        cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
      }),
      /broke in the middle of the answer \(terminated: other side closed\)/,
    ],
    [
      { type: "overloaded_error", message: "Overloaded" },
      /reported an error in the middle of the answer \(overloaded_error: Overloaded\)/,
    ],
    [{ message: "prompt is too long: 9 > 8" }, /context window/],
  ])("words %s", (error, expected) => {
    expect(describeProviderError(error, context)).toMatch(expected);
  });

  it("works without a context and passes a described failure through", () => {
    expect(describeProviderError(new Error("odd"))).toBe("The model provider failed: odd.");
    expect(describeProviderError(new ProviderFailure("Already said."), context)).toBe(
      "Already said.",
    );
  });
});

describe("describeFailures", () => {
  it("words error parts for the provider and says when text arrived first", async () => {
    async function* turn(): AsyncIterable<TurnPart> {
      yield { type: "text", text: "<think>hal" };
      yield { type: "error", error: apiError(500, "boom") };
    }
    const parts: TurnPart[] = [];
    const described = describeFailures(() => turn(), context);
    for await (const part of described({} as never)) parts.push(part);
    expect(parts[0]).toEqual({ type: "text", text: "<think>hal" });
    const error = parts[1]?.type === "error" ? parts[1].error : undefined;
    expect(error).toBeInstanceOf(ProviderFailure);
    expect((error as Error).message).toMatch(
      /HTTP 500.*What arrived before the failure is kept\.$/,
    );
  });
});
