import { describe, expect, it, vi } from "vitest";

describe("zod-jitless", () => {
  it("makes zod skip its `new Function` probe, even when loaded before zod itself", async () => {
    vi.resetModules();
    delete (globalThis as { __zod_globalConfig?: unknown }).__zod_globalConfig;
    await import("./zod-jitless");
    const { z } = await import("zod");
    const { globalConfig } = await import("zod/v4/core");
    expect(globalConfig.jitless).toBe(true);
    const probe = vi.spyOn(globalThis, "Function");
    expect(z.strictObject({ input: z.number() }).parse({ input: 1 })).toEqual({ input: 1 });
    expect(probe).not.toHaveBeenCalled();
  });
});
