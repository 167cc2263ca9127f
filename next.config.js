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
  // Responses are gzipped only for other machines (`WIRESCOPE_HOST` not a loopback address, as
  // `npm start` binds it): on this machine, gzip took a quarter to a third of the server's CPU
  // per API request or page load and saved nothing (`bench/request-cpu.ts`). Event streams are
  // never compressed (`cache-control: no-transform`).
  compress: !isLoopback(process.env.WIRESCOPE_HOST || "127.0.0.1"),
  // Do not let `next dev` write agent instructions into the repository.
  agentRules: false,
  // The dev-mode badge sits on top of the composer; the app has its own status.
  devIndicators: false,
  experimental: {
    // No upgrade reminders: they query the npm registry during `next dev`/`next build`.
    agentUpgrade: false,
  },
};

/** @param {string} host */
function isLoopback(host) {
  return /^((::ffff:)?127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i.test(host.trim());
}

module.exports = nextConfig;
