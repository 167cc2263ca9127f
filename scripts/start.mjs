#!/usr/bin/env node
// `npm start`: build when the sources changed since the last build, then serve the production
// app and print one short banner: the URL, the data directory and the configured providers
// (names only; keys never leave the server). Host and port: WIRESCOPE_HOST (default 127.0.0.1,
// only this machine can connect; 0.0.0.0 exposes the app on purpose) and PORT (default 3000).
import { EventEmitter } from "node:events";
import { createServer, get } from "node:http";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import nextEnv from "@next/env";
import { build } from "./build.mjs";
import { guardRequests } from "./request-guard.mjs";
import { telemetryEnv } from "./telemetry.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
// `.env.local` and the other `.env` files, read as Next reads them (a variable set in the shell
// wins), before anything here reads the environment: PORT and WIRESCOPE_HOST set there count
// too, and next.config.js sees the host it is served on. As the production server Next starts
// below reads them (an inherited NODE_ENV=test would read `.env.test` and skip `.env.local`).
process.env.NODE_ENV = "production";
nextEnv.loadEnvConfig(root, false, { info: () => {}, error: console.error });
Object.assign(process.env, telemetryEnv(process.env));
if (process.env.NEXT_TELEMETRY_DISABLED === undefined) delete process.env.NEXT_TELEMETRY_DISABLED;

const host = process.env.WIRESCOPE_HOST || "127.0.0.1";
const port = Number(process.env.PORT || 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number (0–65535), not "${process.env.PORT}".`);
  process.exit(1);
}

const started = Date.now();
try {
  if (!(await build({ ifChanged: true, quiet: !process.argv.includes("--verbose") })))
    console.log("Wirescope: the build is up to date.");
  else console.log(`Wirescope: built in ${Math.round((Date.now() - started) / 1000)} s.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const { default: next } = await import("next");
// Next listens for protocol upgrades (its dev server's websocket) on the server it is given or,
// by default, on the one its first request came through; in production it has none to serve,
// and its listener closed every request carrying `Upgrade` without an answer (`curl --http2`
// asks for h2c that way). Given a stand-in, this server has no `upgrade` listener, so Node
// serves such a request as any other: a server may ignore `Upgrade` (RFC 9110 §7.8).
const app = next({ dev: false, dir: root, hostname: host, port, httpServer: new EventEmitter() });
const handle = app.getRequestHandler();
// Next announces how long loading next.config.js took; the banner below says what matters.
const log = console.log;
console.log = (...args) => {
  if (!/Running next\.config\.\w+ took/.test(args.join(" "))) log(...args);
};
await app.prepare();
console.log = log;
const server = createServer();
// A method no route has, CONNECT, or a request target that is not a path is answered here
// (JSON 405/400) before Next, which would answer some of them badly (scripts/request-guard.mjs).
const guarded = guardRequests(server, (request, response) => {
  handle(request, response).catch((error) => {
    console.error("wirescope: a request failed:", error);
    if (!response.headersSent) response.statusCode = 500;
    response.end();
  });
});
server.on("request", guarded);
server.on("error", (error) => {
  console.error(
    error.code === "EADDRINUSE"
      ? `Port ${port} on ${host} is in use: choose another with PORT=…`
      : `Could not listen on ${host}:${port}: ${error.message}`,
  );
  process.exit(1);
});
server.listen(port, host, async () => {
  const address = server.address();
  const actualPort = typeof address === "object" && address !== null ? address.port : port;
  const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  const url = `http://${shown.includes(":") ? `[${shown}]` : shown}:${actualPort}`;
  const dataDir = resolve(root, process.env.WIRESCOPE_DATA_DIR ?? "data");
  const stop = (problem) => {
    console.error(`\n  ${problem}\n`);
    server.close();
    process.exit(1);
  };
  const settingsProblem = await settingsCheck(url);
  if (settingsProblem !== undefined) stop(settingsProblem);
  console.log(`\n  Wirescope  ${url}`);
  if (shown !== host) console.log(`  listening on ${host}: other machines can connect`);
  console.log(`  data       ${dataDir}`);
  if (process.env.DATABASE_URL?.trim()) console.log("  store      PostgreSQL (DATABASE_URL)");
  // The details (which DATABASE_URL, what failed) are logged just above by the app.
  const storeProblem = await storeCheck(url);
  if (storeProblem !== undefined) stop(storeProblem);
  console.log(`  providers  ${await configuredProviders(url)}\n`);
});

/**
 * The settings the app cannot use (GET /api/config's `problems`: a numeric variable that is not
 * a number it takes, a bad OTLP setting), so that a typo stops the start instead of quietly
 * becoming the default.
 */
async function settingsCheck(url) {
  try {
    const { status, body } = await askApp(url, "/api/config");
    const problems = body?.problems;
    if (!Array.isArray(problems))
      return `Wirescope cannot start: GET /api/config answered ${status}.`;
    if (problems.length === 0) return undefined;
    return `Wirescope cannot start: fix ${problems.length === 1 ? "this setting" : "these settings"}.\n  ${problems.join("\n  ")}`;
  } catch (error) {
    return `Wirescope cannot start: ${error instanceof Error ? error.message : error}`;
  }
}

/**
 * `GET path` of the app just started, naming `localhost` as its host (always served): the
 * address it listens on may be one only `WIRESCOPE_ALLOWED_HOSTS` lets through. The status and
 * the JSON body (undefined when it is not JSON).
 */
function askApp(url, path) {
  return new Promise((resolve, reject) => {
    const request = get(new URL(path, url), { headers: { host: "localhost" } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (part) => {
        text += part;
      });
      response.on("end", () => {
        let body;
        try {
          body = JSON.parse(text);
        } catch {}
        resolve({ status: response.statusCode, body });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

/**
 * Opens the store as the app does (one list request): with DATABASE_URL set, a database that
 * cannot be used (503) or a DATABASE_URL that is no PostgreSQL URL (500) stops the server at
 * start rather than failing every request later.
 */
async function storeCheck(url) {
  if (!process.env.DATABASE_URL?.trim()) return undefined;
  try {
    const { status, body } = await askApp(url, "/api/transcripts?limit=1");
    return status >= 500 ? `Wirescope cannot start: ${body?.error}` : undefined;
  } catch (error) {
    return `Wirescope cannot start: ${error instanceof Error ? error.message : error}`;
  }
}

/** The configured providers' names, as the app itself reports them (GET /api/models). */
async function configuredProviders(url) {
  try {
    const { providers } = (await askApp(url, "/api/models")).body;
    const ready = providers.filter((provider) => provider.configured && !provider.error);
    return ready.map((provider) => provider.id).join(", ");
  } catch (error) {
    return `(could not list: ${error instanceof Error ? error.message : error})`;
  }
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
