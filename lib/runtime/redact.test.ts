import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets } from "./redact";

describe("redactSecrets", () => {
  it.each([
    ["Incorrect API key provided: Bearer sk-live-1234567890abcdef", "sk-live"],
    ["Authorization: Bearer abcdefghijklmnop", "abcdefghijklmnop"],
    ['{"authorization":"Bearer tok_12345678"}', "tok_12345678"],
    ["invalid x-api-key: sk-ant-api03-abcdefgh12345678", "sk-ant-api03"],
    ["x-api-key=plainvalue-without-prefix", "plainvalue"],
    ["GET https://host/v1/models?key=AIzaSyA1234567890abcdefghij&alt=sse", "AIzaSy"],
    ["api_key: hunter2hunter2", "hunter2"],
    ["token gsk_abcdefghijklmnopqrstu leaked", "gsk_abcdef"],
  ])("hides the credential in %j", (text, secret) => {
    const redacted = redactSecrets(text);
    expect(redacted).not.toContain(secret);
    expect(redacted).toContain(REDACTED);
  });

  it("hides exact configured values wherever they appear", () => {
    const key = "custom-secret-value-9f8e";
    expect(redactSecrets(`echo: ${key}!`, [key])).toBe(`echo: ${REDACTED}!`);
  });

  it("leaves ordinary provider messages alone", () => {
    const text =
      "This model's maximum context length is 128000 tokens. The model `gpt-5.5` does not exist; the bearer of news.";
    expect(redactSecrets(text, ["short"])).toBe(text);
  });
});
