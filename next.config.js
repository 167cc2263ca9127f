// @ts-check

/**
 * Next.js configuration for Wirescope.
 *
 * Telemetry is off unless the user turns it on: `npm start` and `npm run build` set
 * NEXT_TELEMETRY_DISABLED=1 unless it is set to 0 (scripts/telemetry.mjs); `.ci/run` and the
 * Playwright web server set it too.
 *
 * @type {import("next").NextConfig}
 */
const nextConfig = {
  // Database drivers (the native SQLite module; node-postgres, whose optional native binding
  // must not be bundled): load them with Node's require.
  serverExternalPackages: ["better-sqlite3", "pg"],
  // Do not let `next dev` write agent instructions into the repository.
  agentRules: false,
  // The dev-mode badge sits on top of the composer; the app has its own status.
  devIndicators: false,
  experimental: {
    // No upgrade reminders: they query the npm registry during `next dev`/`next build`.
    agentUpgrade: false,
  },
};

module.exports = nextConfig;
