import { describe, expect, it } from "vitest";
import { isOn, numberProblem, readNumber, SETTINGS, SWITCHES, settingProblems } from "./settings";

describe("numeric settings", () => {
  it("reads a value the setting takes, and the default when unset or blank", () => {
    expect(readNumber({ WIRESCOPE_MAX_TURNS: " 4 " }, SETTINGS.maxTurns)).toBe(4);
    expect(readNumber({ WIRESCOPE_BODY_IDLE_TIMEOUT_S: "2.5" }, SETTINGS.bodyIdleTimeoutS)).toBe(
      2.5,
    );
    expect(readNumber({ WIRESCOPE_MAX_LIVE_RUNS: "0" }, SETTINGS.maxLiveRuns)).toBe(0);
    expect(readNumber({ WIRESCOPE_POLL_MS: "214748364" }, SETTINGS.pollMs)).toBe(214_748_364);
    expect(readNumber({ WIRESCOPE_POLL_MS: "214748365" }, SETTINGS.pollMs)).toBe(100);
    for (const value of [undefined, "", "  "]) {
      const env = { WIRESCOPE_MAX_TURNS: value };
      expect(readNumber(env, SETTINGS.maxTurns)).toBe(10);
      expect(numberProblem(env, SETTINGS.maxTurns)).toBeNull();
    }
  });

  it("names the variable, the values it takes and its default for one it does not take", () => {
    expect(numberProblem({ WIRESCOPE_MAX_LIVE_RUNS: "lots" }, SETTINGS.maxLiveRuns)).toBe(
      "WIRESCOPE_MAX_LIVE_RUNS: must be a whole number of runs, 0 or more (0: no limit); unset, it is 1000.",
    );
    expect(numberProblem({ WIRESCOPE_BODY_IDLE_TIMEOUT_S: "0" }, SETTINGS.bodyIdleTimeoutS)).toBe(
      "WIRESCOPE_BODY_IDLE_TIMEOUT_S: must be a number of seconds, above 0 and at most 2147483; unset, it is 30.",
    );
    expect(numberProblem({ WIRESCOPE_LEASE_MS: "999" }, SETTINGS.leaseMs)).toMatch(
      /^WIRESCOPE_LEASE_MS: must be a number of ms, 1000 or more and at most 2147483647;/,
    );
  });

  it("refuses what is not a finite number, a fraction where a whole one is needed, and values below the floor", () => {
    const refused: [keyof typeof SETTINGS, string][] = [
      ["maxTurns", "2.5"],
      ["maxTurns", "0"],
      ["maxTurns", "ten"],
      ["maxLiveRuns", "-1"],
      ["pollMs", "4"],
      ["demoPaceMs", "-5"],
      ["streamIdleTimeoutMs", "Infinity"],
      ["stopUnwatchedAfterS", "1 minute"],
      ["proxyMaxBodyMb", "-32"],
      ["importMaxMb", "NaN"],
      // A timer this long would fire at once (Node's limit is 2^31 − 1 ms).
      ["bodyIdleTimeoutS", "3000000"],
      ["leaseMs", "2147483648"],
    ];
    for (const [name, value] of refused) {
      const setting = SETTINGS[name];
      const env = { [setting.variable]: value };
      expect(numberProblem(env, setting), `${setting.variable}=${value}`).toContain(
        setting.variable,
      );
      expect(readNumber(env, setting)).toBe(setting.fallback);
    }
  });

  it("takes 1 or 0 for a switch, and names anything else (a shell left off by `true`)", () => {
    expect(isOn({ WIRESCOPE_ENABLE_SHELL: " 1 " }, SWITCHES.shell)).toBe(true);
    for (const value of ["0", "", "true", "yes"])
      expect(isOn({ WIRESCOPE_ENABLE_SHELL: value }, SWITCHES.shell)).toBe(false);
    expect(settingProblems({ WIRESCOPE_ENABLE_SHELL: "0", WIRESCOPE_OTLP_CONTENT: "1" })).toEqual(
      [],
    );
    expect(
      settingProblems({ WIRESCOPE_ENABLE_SHELL: "true", WIRESCOPE_OTLP_CONTENT: "on" }),
    ).toEqual([
      "WIRESCOPE_ENABLE_SHELL: must be 1 (on) or 0 (off); unset, it is off.",
      "WIRESCOPE_OTLP_CONTENT: must be 1 (on) or 0 (off); unset, it is off.",
    ]);
  });

  it("lists every problem of an environment, and none for the defaults", () => {
    expect(settingProblems({})).toEqual([]);
    expect(
      settingProblems({ WIRESCOPE_POLL_MS: "fast", WIRESCOPE_IMPORT_MAX_MB: "0", PORT: "x" }),
    ).toEqual([
      expect.stringMatching(/^WIRESCOPE_POLL_MS: /),
      expect.stringMatching(/^WIRESCOPE_IMPORT_MAX_MB: /),
    ]);
  });
});
