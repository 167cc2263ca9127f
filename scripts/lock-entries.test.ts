import { describe, expect, it } from "vitest";
import {
  candidatePaths,
  exactVersion,
  type Lock,
  missingOptional,
  platformFromName,
} from "./lock-entries";

describe("candidatePaths", () => {
  it("walks from the nearest node_modules up to the top", () => {
    expect(candidatePaths("", "a")).toEqual(["node_modules/a"]);
    expect(candidatePaths("node_modules/x/node_modules/@s/y", "@b/c")).toEqual([
      "node_modules/x/node_modules/@s/y/node_modules/@b/c",
      "node_modules/x/node_modules/@b/c",
      "node_modules/@b/c",
    ]);
  });
});

describe("exactVersion", () => {
  it("accepts exact versions and rejects ranges", () => {
    expect(exactVersion("2.6.8")).toBe("2.6.8");
    expect(exactVersion("2.0.0-beta.2")).toBe("2.0.0-beta.2");
    expect(exactVersion("=1.0.0")).toBe("1.0.0");
    expect(exactVersion("^1.0.0")).toBeNull();
    expect(exactVersion("1.x")).toBeNull();
  });
});

describe("missingOptional", () => {
  const lock: Lock = {
    packages: {
      "": { optionalDependencies: { loose: "^1.0.0" } },
      "node_modules/tool": {
        version: "1.0.0",
        optionalDependencies: {
          "tool-linux": "1.0.0",
          "tool-darwin": "1.0.0",
          "tool-win": "1.0.0",
        },
      },
      "node_modules/tool-linux": { version: "1.0.0" },
      "node_modules/tool-win": { version: "0.9.0" },
      "node_modules/loose": { version: "1.4.0" },
      "node_modules/wasm": {
        version: "1.0.0",
        optionalDependencies: { inside: "1.0.0" },
        bundleDependencies: ["inside"],
      },
      "node_modules/deep": { version: "1.0.0" },
      "node_modules/deep/node_modules/tool": {
        version: "2.0.0",
        optionalDependencies: { "tool-linux": "2.0.0" },
      },
      "node_modules/deep/node_modules/tool-linux": { version: "2.0.0" },
    },
  };

  it("lists each optional package without a satisfying entry", () => {
    expect(missingOptional(lock)).toEqual([
      { from: "node_modules/tool", name: "tool-darwin", range: "1.0.0", found: null },
      { from: "node_modules/tool", name: "tool-win", range: "1.0.0", found: "0.9.0" },
    ]);
  });

  it("is empty for a complete lock", () => {
    const complete: Lock = {
      packages: {
        ...lock.packages,
        "node_modules/tool-darwin": { version: "1.0.0" },
        "node_modules/tool-win": { version: "1.0.0" },
      },
    };
    expect(missingOptional(complete)).toEqual([]);
  });
});

describe("platformFromName", () => {
  it("reads os, cpu and libc from a binary package's name", () => {
    expect(platformFromName("@biomejs/cli-linux-x64-musl")).toEqual({
      os: ["linux"],
      cpu: ["x64"],
      libc: ["musl"],
    });
    expect(platformFromName("@tailwindcss/oxide-linux-arm-gnueabihf")).toEqual({
      os: ["linux"],
      cpu: ["arm"],
      libc: ["glibc"],
    });
    expect(platformFromName("@next/swc-win32-arm64-msvc")).toEqual({
      os: ["win32"],
      cpu: ["arm64"],
    });
    expect(platformFromName("@tailwindcss/oxide-wasm32-wasi")).toEqual({ cpu: ["wasm32"] });
    expect(platformFromName("left-pad")).toBeNull();
  });
});
