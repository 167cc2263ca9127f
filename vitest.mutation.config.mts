import { defineConfig } from "vitest/config";
import base from "./vitest.config.mts";

// The unit tests of the areas that `npm run mutation` mutates (see stryker.config.mjs).
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["lib/protocol/**/*.test.ts", "lib/tools/**/*.test.ts", "lib/runtime/**/*.test.ts"],
    // Instrumented code runs several times slower: the conformance suites need the room.
    testTimeout: 60_000,
  },
});
