import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: [
      "lib/**/*.test.ts",
      "components/**/*.test.{ts,tsx}",
      "app/**/*.test.ts",
      "scripts/*.test.ts",
      "state/**/*.test.ts",
    ],
    environment: "node",
    // Temporary files of every test under one directory, removed when the run ends.
    globalSetup: ["./scripts/test-tmpdir.ts"],
    // A stray `.only` fails the run everywhere, not only in CI (scripts/focused-tests.test.ts).
    allowOnly: false,
  },
});
