import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildIsCurrent, sourceHash, writeStamp } from "./build-stamp.mjs";
import { telemetryEnv } from "./telemetry.mjs";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "wirescope-stamp-"));
  await mkdir(join(root, "lib"));
  await writeFile(join(root, "lib", "a.ts"), "export const a = 1;\n");
  await writeFile(join(root, "package.json"), "{}\n");
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function fakeBuild() {
  await mkdir(join(root, ".next"), { recursive: true });
  await writeFile(join(root, ".next", "BUILD_ID"), "x");
  writeStamp(root, sourceHash(root));
}

describe("the build stamp", () => {
  it("is current after a build of the same sources", async () => {
    expect(buildIsCurrent(root)).toBe(false);
    await fakeBuild();
    expect(buildIsCurrent(root)).toBe(true);
  });

  it("is stale when a source, the lock or the config changes, or a file appears", async () => {
    await fakeBuild();
    await writeFile(join(root, "lib", "a.ts"), "export const a = 2;\n");
    expect(buildIsCurrent(root)).toBe(false);
    await fakeBuild();
    await writeFile(join(root, "package-lock.json"), "{}\n");
    expect(buildIsCurrent(root)).toBe(false);
    await fakeBuild();
    await writeFile(join(root, "next.config.js"), "module.exports = {};\n");
    expect(buildIsCurrent(root)).toBe(false);
    await fakeBuild();
    await mkdir(join(root, "components"));
    await writeFile(join(root, "components", "b.tsx"), "export {};\n");
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("ignores files the build does not read", async () => {
    await fakeBuild();
    await writeFile(join(root, "README.md"), "# notes\n");
    await mkdir(join(root, "data"));
    await writeFile(join(root, "data", "wirescope.db"), "x");
    expect(buildIsCurrent(root)).toBe(true);
  });

  it("is stale without a complete build", async () => {
    await fakeBuild();
    await rm(join(root, ".next", "BUILD_ID"));
    expect(buildIsCurrent(root)).toBe(false);
  });
});

describe("telemetryEnv", () => {
  it("keeps Next.js telemetry off unless NEXT_TELEMETRY_DISABLED=0 turns it on", () => {
    expect(telemetryEnv({ PATH: "/bin" })).toEqual({ PATH: "/bin", NEXT_TELEMETRY_DISABLED: "1" });
    expect(telemetryEnv({ NEXT_TELEMETRY_DISABLED: "1" })).toEqual({
      NEXT_TELEMETRY_DISABLED: "1",
    });
    expect(telemetryEnv({ NEXT_TELEMETRY_DISABLED: "0", PATH: "/bin" })).toEqual({ PATH: "/bin" });
  });
});
