/** What the transcript routes share: the store, id checks, errors as `{ error }` JSON. */
import { z } from "zod";
import { MAX_JSON_DEPTH, safeParseJson, tooDeep } from "@/lib/protocol/safe-json";
import { secretsOf } from "@/lib/providers";
import { redactSecrets } from "@/lib/runtime/redact";
import { BodyIdleError, readBodyIdleMs, readBounded } from "@/lib/server/body-idle";
import { readConfig, type ServerConfig } from "@/lib/server/config";
import { allowedHosts, hostProblem, securityHeaders } from "@/lib/server/host-check";
import { crossSiteRefusal } from "@/lib/server/same-origin";
import { getStore } from "@/lib/server/store-instance";
import { type Store, StoreError, sqliteProblem } from "@/lib/store";
import { openPagedTranscript, type PagedTranscript } from "@/lib/store/paged-transcript";

export const transcriptId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "must be a transcript id");

export interface RouteContext {
  params: Promise<{ id: string }>;
}

export function server(): { config: ServerConfig; store: Store } {
  const config = readConfig();
  return { config, store: getStore(config.dataDir) };
}

/** Text with the server's configured keys and credential-looking values redacted. */
export function redacted(text: string, config: ServerConfig): string {
  return redactSecrets(text, secretsOf(config.providerEnv));
}

export function problem(status: number, error: string, extra: Record<string, unknown> = {}) {
  return Response.json({ error, ...extra }, { status });
}

/** The `:id` of the path, or a 400 naming it. */
export async function idOf(context: RouteContext): Promise<string | Response> {
  const { id } = await context.params;
  const parsed = transcriptId.safeParse(id);
  return parsed.success ? parsed.data : problem(400, "id: must be a transcript id.");
}

export const notFound = (id: string) => problem(404, `id: no transcript "${id}".`);

/**
 * What a POST that acts on one transcript starts from, or the response that refuses it: a
 * page of another site (403), a bad id (400), a bad body (400/413), an unknown transcript (404).
 * The source is paged: each route reads only the records it needs.
 */
export async function transcriptPost<T>(
  request: Request,
  context: RouteContext,
  schema: z.ZodType<T>,
): Promise<
  Response | { id: string; body: T; source: PagedTranscript; store: Store; config: ServerConfig }
> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const id = await idOf(context);
  if (id instanceof Response) return id;
  const body = await readBody(request, schema);
  if (body instanceof Response) return body;
  const { store, config } = server();
  const source = await openPagedTranscript(store, id);
  if (source === null) return notFound(id);
  return { id, body, source, store, config };
}

/** The first problem in words, naming the field: `title: must not be empty.` */
export function describeProblem(error: z.ZodError, root: "body" | "query" = "body"): string {
  const issue = error.issues[0];
  if (issue === undefined) return "Invalid request.";
  const field = issue.path.length > 0 ? issue.path.join(".") : root;
  if (issue.code === "unrecognized_keys") {
    const what = root === "query" ? "parameter" : "field";
    return `${field}: unknown ${what} ${issue.keys.map((key) => `"${key}"`).join(", ")}.`;
  }
  return `${field}: ${issue.message}.`;
}

/** The largest JSON request body a route reads (4 MiB: a system prompt of 500,000 characters fits). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * A JSON body checked against `schema`, or the response that refuses it: 413 past `maxBytes`
 * (from `Content-Length`, and by counting while reading, so nothing past the cap is buffered),
 * 408 when the client sends nothing for `WIRESCOPE_BODY_IDLE_TIMEOUT_S` mid-body, 400 for text that is not JSON, nests deeper than `MAX_JSON_DEPTH` or fails the schema.
 */
export async function readBody<T>(
  request: Request,
  schema: z.ZodType<T>,
  maxBytes: number = MAX_BODY_BYTES,
): Promise<T | Response> {
  const text = await readCappedText(request, maxBytes);
  if (text instanceof Response) return text;
  const json = safeParseJson(text);
  if (!json.ok) return problem(400, "body: not valid JSON.");
  // Before the schema: a recursive schema walking 10,000 levels throws a RangeError.
  const deep = tooDeep(json.value);
  if (deep !== undefined)
    return problem(400, `${deep || "body"}: nested deeper than ${MAX_JSON_DEPTH} levels.`);
  const parsed = schema.safeParse(json.value);
  return parsed.success ? parsed.data : problem(400, describeProblem(parsed.error));
}

/**
 * The body as UTF-8 text, or a 413 once it passes `maxBytes` (or says it will), a 408 once the
 * client has sent nothing for `idleMs`, or a 400 when it is not UTF-8 (decoding it anyway would
 * store U+FFFD in place of what the client sent). Decoded as it arrives, so bytes that are not
 * UTF-8 are refused at once, not once a client that holds the body open finally ends it (a
 * decoder per request costs a few µs a run start against decoding once at the end).
 */
export async function readCappedText(
  request: Request,
  maxBytes: number,
  idleMs: number = readBodyIdleMs(process.env),
): Promise<string | Response> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let text = "";
  let read: Awaited<ReturnType<typeof readBounded>>;
  try {
    read = await readBounded(request, maxBytes, idleMs, (bytes) => {
      const piece = decodePiece(decoder, bytes);
      if (piece !== null) text += piece;
      return piece !== null;
    });
  } catch {
    return problem(400, "body: could not be read.");
  }
  if (read === "too large") return tooLarge(maxBytes);
  if (read === "stopped") return notUtf8();
  if (read instanceof BodyIdleError) return problem(408, read.message);
  const last = decodePiece(decoder);
  return last === null ? notUtf8() : text + last;
}

/** The text of `bytes` so far (all that is left, without them), or null when it is not UTF-8. */
function decodePiece(decoder: TextDecoder, bytes?: Uint8Array): string | null {
  try {
    return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
  } catch {
    return null;
  }
}

const notUtf8 = () => problem(400, "body: not valid UTF-8.");

function tooLarge(maxBytes: number): Response {
  return problem(413, `body: larger than the limit of ${Math.round(maxBytes / 1024)} KB.`);
}

/**
 * A route handler that always answers JSON: anything it throws becomes a 500 with
 * `{ error }` (the details go to the server log, never to the client: they may hold paths),
 * or a 503 with `Retry-After` when the store's database (DATABASE_URL) cannot be used now
 * (`storeUnavailable`), or the status of a SQLite failure the user can act on, a full disk
 * first (`storeFailed`), or a 400 for a value the store refuses (`invalid`: a NUL character
 * sent to PostgreSQL, which stores none).
 */
export function jsonRoute<Args extends unknown[]>(
  handler: (...args: Args) => Promise<Response>,
): (...args: Args) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      console.error("wirescope: a request failed:", error);
      const unavailable = storeUnavailable(error) ?? storeFailed(error);
      if (unavailable !== null) return unavailable;
      if (error instanceof StoreError && error.code === "misconfigured")
        return problem(500, `store: ${error.message} Fix it and restart the server.`);
      // A value the store refuses (PostgreSQL takes no NUL in text, …) is the request's fault.
      if (error instanceof StoreError && error.code === "invalid")
        return problem(400, `store: ${error.message.slice(0, 300)}`);
      return problem(500, "server: the request failed; see the server log.");
    }
  };
}

/** Seconds to wait before asking again when a store's error does not say. */
const DEFAULT_RETRY_AFTER_S = 5;

/**
 * A store's database that cannot be used now (`unavailable`: unreachable, out of connections,
 * a statement past its time limit, …) as a 503 naming the cause, with `Retry-After`; null for
 * any other error. The cause is the store's `why` (no host, user or SQL: those go to the log).
 */
export function storeUnavailable(error: unknown): Response | null {
  if (!(error instanceof StoreError) || error.code !== "unavailable") return null;
  const why = error.why ?? "it cannot be used";
  const retryAfter = error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_S;
  return Response.json(
    {
      error: `store: the database (DATABASE_URL) cannot be used now: ${why}; try again in ${retryAfter} s (details in the server log).`,
      retryAfterSeconds: retryAfter,
    },
    { status: 503, headers: { "retry-after": String(retryAfter) } },
  );
}

/**
 * A SQLite write or read that failed for a reason the user can act on (a full disk, a busy or
 * read-only database) as its status with the cause named (507 for a full disk, else 503, with
 * `Retry-After` when asking again soon may work); null for any other error.
 */
export function storeFailed(error: unknown): Response | null {
  const found = sqliteProblem(error);
  if (found === undefined) return null;
  const { status, why, retryAfterSeconds } = found;
  const again = retryAfterSeconds === undefined ? "" : `; try again in ${retryAfterSeconds} s`;
  return Response.json(
    {
      error: `store: ${why}${again} (details in the server log).`,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    },
    {
      status,
      ...(retryAfterSeconds === undefined
        ? {}
        : { headers: { "retry-after": String(retryAfterSeconds) } }),
    },
  );
}

/** Digits a query number may have: 15 stay exact as a JS number and fit a database's bigint. */
const MAX_QUERY_DIGITS = 15;

/**
 * A whole number in a query string, written in decimal digits (`Number` would also take
 * `0x10`, `1e2` or `1.0`), of at most 15 of them, then checked by `rule`. Too many digits is
 * said as such: `limit=99999999999999999999` is a whole number written in digits.
 */
export function queryNumber(rule: z.ZodNumber = z.number()) {
  return z
    .string()
    .min(1, "is empty: give a whole number in digits, or leave the parameter out")
    .regex(/^[0-9]+$/, "must be a whole number written in digits")
    .refine(
      (digits) => digits.length <= MAX_QUERY_DIGITS,
      `is too large: at most ${MAX_QUERY_DIGITS} digits`,
    )
    .transform(Number)
    .pipe(rule);
}

/**
 * Query parameters checked against `schema`. An empty value is given, not absent: `?limit=`
 * was read as no `limit` and sent a whole transcript back; a number or a choice given empty is
 * refused naming it (a schema reads an empty free-text value as absent where that is meant).
 */
export function readQuery<T>(request: Request, schema: z.ZodType<T>): T | Response {
  const entries = [...new URL(request.url).searchParams.entries()];
  const seen = new Set<string>();
  // Which of two values was meant cannot be told: not the last one silently.
  const repeated = entries.find(([name]) => {
    if (seen.has(name)) return true;
    seen.add(name);
    return false;
  });
  if (repeated !== undefined)
    return problem(400, `${repeated[0].slice(0, 40)}: given more than once; give it once.`);
  const params = Object.fromEntries(entries);
  const parsed = schema.safeParse(params);
  return parsed.success ? parsed.data : problem(400, describeProblem(parsed.error, "query"));
}

export interface RouteOptions {
  /**
   * What the route does with a query string. By default it takes none: one given is refused
   * (`400` naming its first parameter), so a parameter misspelt, or sent to the wrong route, is
   * never quietly ignored. `"own"`: the handler reads and checks its query (`readQuery`), or
   * hands it on (the capture proxy, the unknown-route answer).
   */
  query?: "own";
}

/** A query string on a route that takes none, in words; null when there is none. */
function queryProblem(request: Request): string | null {
  const first = new URL(request.url).searchParams.keys().next();
  if (first.done === true) return null;
  return `query: unknown parameter ${JSON.stringify(first.value.slice(0, 40))}; this route takes none.`;
}

/**
 * `jsonRoute` plus what `proxy.ts` does for pages: the Host check (421) and the security
 * headers. Every API and proxy route is wrapped in it, because `proxy.ts` leaves them out:
 * where it runs, Next reads a request's whole body before the route sees any of it, so a body
 * sent a byte at a time held the request for Node's 300 s instead of
 * `WIRESCOPE_BODY_IDLE_TIMEOUT_S`. A cross-site check (`crossSiteRefusal`) stays in each route
 * that acts.
 */
export function guardedRoute<Args extends [Request, ...unknown[]]>(
  handler: (...args: Args) => Promise<Response>,
  options: RouteOptions = {},
): (...args: Args) => Promise<Response> {
  const answer = jsonRoute(handler);
  return async (...args) => {
    const [request] = args;
    // Next builds `request.url` from the Host header; a request built in-process has only the URL.
    const named = new Headers(request.headers);
    if (!named.has("host")) named.set("host", new URL(request.url).host);
    const foreign = hostProblem(named, allowedHosts(process.env));
    const query = options.query === "own" ? null : queryProblem(request);
    const response =
      foreign !== null
        ? problem(421, foreign)
        : query !== null
          ? problem(400, query)
          : await answer(...args);
    const headers = new Headers(response.headers);
    const secure = securityHeaders(process.env.NODE_ENV === "development");
    for (const [name, value] of Object.entries(secure)) headers.set(name, value);
    // A new response: one from `fetch` (the proxy's upstream answer) has immutable headers.
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}

/** The methods Next hands to a route (any other gets Next's empty 400 before a route runs). */
const METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
/** What a route may serve: HEAD comes with GET (Next answers it with the GET handler). */
type Served = Exclude<Method, "HEAD" | "OPTIONS">;

/**
 * Handlers for the methods a route does not serve: a guarded JSON `405` with `Allow`, instead
 * of Next's empty one (and instead of its `204` for `OPTIONS`: there is no CORS here, the server
 * checks Host and Origin). A route exports the ones it lacks:
 * `export const { PUT, DELETE, OPTIONS } = otherMethods("GET")` (and `HEAD` when it has no GET).
 */
export function otherMethods(
  ...allowed: Served[]
): Record<Method, (request: Request) => Promise<Response>> {
  const allow = allowed.includes("GET") ? [...allowed, "HEAD"] : allowed;
  const refuse = (method: Method) =>
    guardedRoute(
      async (_request: Request) =>
        Response.json(
          { error: `method: ${method} is not served here; use ${allowed.join(" or ")}.` },
          { status: 405, headers: { allow: allow.join(", ") } },
        ),
      // The method is what is wrong, whatever the query.
      { query: "own" },
    );
  const handlers = METHODS.map((method) => [method, refuse(method)] as const);
  return Object.fromEntries(handlers) as Record<Method, (request: Request) => Promise<Response>>;
}
