// Mutation testing (npm run mutation): StrykerJS changes the code of lib/protocol, lib/tools and
// lib/runtime one small edit ("mutant") at a time and runs the tests that cover it; a mutant that
// no test notices is a gap in the suite. Slow (tens of minutes on 2 cores), so not part of CI.
// Narrow it with --mutate, e.g. npm run mutation -- --mutate "lib/tools/**/*.ts,!**/*.test.ts".
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: { configFile: "vitest.mutation.config.mts", related: true },
  mutate: [
    "lib/protocol/**/*.ts",
    "lib/tools/**/*.ts",
    "lib/runtime/**/*.ts",
    "!lib/**/*.test.ts",
    "!lib/**/testing.ts",
    "!lib/**/*-testing.ts",
    "!lib/**/index.ts",
  ],
  coverageAnalysis: "perTest",
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 10_000,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  incremental: true,
  incrementalFile: "reports/mutation/stryker-incremental.json",
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
