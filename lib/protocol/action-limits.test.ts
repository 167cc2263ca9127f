import { describe, expect, it } from "vitest";
import { MAX_RETRY, MAX_TIMEOUT_S } from "./action";
import { parseAll } from "./parser";

const action = (body: string) => parseAll("action", `<action type="tool">${body}</action>`);

describe("action bounds", () => {
  it("refuses a retry count or timeout a model could use to stall the server", () => {
    const retry = action(`{"name": "nope", "parameters": {}, "retry": 1000000000}`);
    expect(retry.map((event) => event.type === "error" && event.code)).toEqual(["invalid_call"]);
    expect(JSON.stringify(retry)).toContain(`from 0 to ${MAX_RETRY}`);
    const timeout = action(`{"name": "nope", "parameters": {}, "timeout": 1e9}`);
    expect(timeout.map((event) => event.type === "error" && event.code)).toEqual(["invalid_call"]);
    expect(JSON.stringify(timeout)).toContain(`at most ${MAX_TIMEOUT_S}`);
  });

  it("accepts the bounds themselves", () => {
    const ok = action(
      `{"name": "list", "parameters": {}, "retry": ${MAX_RETRY}, "timeout": ${MAX_TIMEOUT_S}}`,
    );
    expect(ok.map((event) => event.type)).toEqual(["call"]);
  });
});
