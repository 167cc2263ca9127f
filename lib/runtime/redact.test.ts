import { describe, expect, it } from "vitest";
import {
  maskSecrets,
  maskSecretsDeep,
  REDACTED,
  redactSecretLookingDeep,
  redactSecrets,
  redactSecretsDeep,
} from "./redact";

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

  it("leaves words that end in a key prefix alone", () => {
    const text = "disk-utilization-report, task-scheduler-config, mask-unmasked-values";
    expect(redactSecrets(text)).toBe(text);
  });
});

describe("maskSecrets", () => {
  it("hides configured values and key-shaped values behind masks of their own length", () => {
    const key = "custom-secret-value-9f8e";
    const text = `a ${key} b sk-abcdef1234567890 c Bearer abc1234 d token_ghp_abcdefghijklmnop1234`;
    const masked = maskSecrets(text, [key]);
    expect(masked).toHaveLength(text.length);
    expect(masked).toBe(
      "a [redacted**************] b [redacted*********] c Bearer ******* d token_[redacted**************]",
    );
  });

  it("masks every string of a value, keys of objects untouched, the input kept", () => {
    const value = { text: "sk-abcdef1234567890", list: [1, "x sk-abcdef1234567890"], n: null };
    expect(maskSecretsDeep(value)).toEqual({
      text: "[redacted*********]",
      list: [1, "x [redacted*********]"],
      n: null,
    });
    expect(value.text).toBe("sk-abcdef1234567890");
  });
});

describe("credential-named fields of a value", () => {
  const value = {
    metadata: { api_key: "zz11yy22xx33ww44vv55", team: "blue" },
    input: { Password: "hunter2hunter2x9" },
    schema: { properties: { password: { type: "string" } }, secret: "string" },
  };

  it("mask or redact a string a credential-named field holds, whatever it looks like", () => {
    expect(maskSecretsDeep(value)).toMatchObject({
      metadata: { api_key: "[redacted**********]", team: "blue" },
      input: { Password: "[redacted******]" },
      schema: { properties: { password: { type: "string" } }, secret: "******" },
    });
    expect(redactSecretsDeep(value)).toMatchObject({
      metadata: { api_key: REDACTED },
      input: { Password: REDACTED },
      schema: { secret: REDACTED },
    });
  });

  it("for text that is often code, only a secret-looking one: a schema's words stay", () => {
    expect(redactSecretLookingDeep(value)).toEqual({
      metadata: { api_key: REDACTED, team: "blue" },
      input: { Password: REDACTED },
      schema: { properties: { password: { type: "string" } }, secret: "string" },
    });
  });
});
