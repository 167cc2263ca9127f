// The requests `npm start`'s server answers itself, before Next sees them: Next would answer a
// method no route has (TRACE, an unknown one) with a text/plain 500 or its page's 405, follow an
// absolute-form request line (`GET http://evil.example/ HTTP/1.1`) with a 308 to that host, and
// Node would close a CONNECT without a word. Each gets a JSON 4xx naming what is wrong instead;
// every other request goes to Next untouched.

/** The methods the app's routes serve (and the only ones Next hands to a route handler). */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const served = new Set(SERVED_METHODS);
const ALLOW = SERVED_METHODS.join(", ");

/** A request token (RFC 9110 §5.6.2), as a method must be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * What is wrong with a request line Node parsed, or null to hand it to Next. The target must be
 * origin-form (a path): absolute-form and asterisk-form are refused, whatever the method.
 */
export function requestLineProblem(method, target) {
  if (!target.startsWith("/")) return targetProblem(target);
  if (!served.has(method)) return methodProblem(method);
  return null;
}

function methodProblem(method) {
  return {
    status: 405,
    allow: ALLOW,
    error: `method: ${method.slice(0, 40)} is not served here; use ${SERVED_METHODS.slice(0, -1).join(", ")} or OPTIONS.`,
  };
}

function targetProblem(target) {
  // Quoted back cut short: the answer need not echo kilobytes.
  const shown = JSON.stringify(target.slice(0, 64));
  return {
    status: 400,
    error: `request target: ${shown} is not a path; send the path alone, as in "GET /api/transcripts HTTP/1.1".`,
  };
}

/** A path Node's parser refused: it holds bytes a URL must percent-encode (non-ASCII, spaces…). */
function rawCharactersProblem(target) {
  const shown = JSON.stringify(target.slice(0, 64));
  return {
    status: 400,
    error: `request target: ${shown} holds characters a URL cannot carry as they are (non-ASCII, spaces, control characters); percent-encode them, as in "/api/transcripts?query=H%C3%89LLO".`,
  };
}

function headersOf(problem, body) {
  return {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    // The security headers every answer of the app carries (lib/server/host-check.ts
    // `securityHeaders`); a JSON answer loads nothing, so its policy allows nothing.
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
    // Whatever body the request has is not read: the connection ends with the answer.
    connection: "close",
    ...(problem.allow === undefined ? {} : { allow: problem.allow }),
  };
}

/** Answers a refused request on its `ServerResponse`. */
export function refuse(response, problem) {
  const body = JSON.stringify({ error: problem.error });
  response.writeHead(problem.status, headersOf(problem, body));
  response.end(body);
}

const REASONS = { 400: "Bad Request", 405: "Method Not Allowed" };

/** The same answer written straight to a socket (no `ServerResponse`: CONNECT, a parse error). */
export function refuseOnSocket(socket, problem) {
  const body = JSON.stringify({ error: problem.error });
  const head = Object.entries(headersOf(problem, body))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.end(`HTTP/1.1 ${problem.status} ${REASONS[problem.status]}\r\n${head}\r\n${body}`);
}

/**
 * Node's own answers to a request it could not parse, as it gives them when no `clientError`
 * listener is set (lib/_http_server.js): only a bad method or target is worded here.
 */
const NODE_ANSWERS = {
  HPE_HEADER_OVERFLOW: "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n",
  ERR_HTTP_REQUEST_TIMEOUT: "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n",
};
const BAD_REQUEST = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";
/** Marks a socket whose request was refused: it serves nothing more. */
const REFUSED = Symbol("wirescope.refused");

/**
 * The problem of a request line Node refused to parse, when it is a method or target one.
 * `rawPacket` is the data being parsed and `bytesParsed` where in it the parser stopped: the
 * line there is the bad one (an earlier request may share the packet, pipelined).
 */
export function parseErrorProblem({ code, rawPacket, bytesParsed }) {
  if (
    code !== "HPE_INVALID_METHOD" &&
    code !== "HPE_INVALID_URL" &&
    code !== "HPE_INVALID_CONSTANT"
  )
    return null;
  if (!Buffer.isBuffer(rawPacket)) return null;
  const at = Math.min(Math.max(0, Number(bytesParsed) || 0), rawPacket.length);
  // The start of the line holding `at` (at 0 the packet's start: a negative offset to
  // `lastIndexOf` would count from the packet's end).
  const start = at === 0 ? 0 : rawPacket.lastIndexOf(0x0a, at - 1) + 1;
  // A request line is at most Node's header limit (16 KB): a long target is read whole, so a
  // raw space far into it is found (what is quoted back is cut to 64 characters).
  const line = rawPacket
    .subarray(start, Math.min(rawPacket.length, start + 16_384))
    .toString("latin1");
  const requestLine = line.split("\r\n", 1)[0] ?? "";
  const [method = "", target = ""] = requestLine.split(" ");
  // Not a request line at all (TLS sent to the HTTP port, binary): Node's own 400.
  if (!TOKEN.test(method)) return null;
  if (code === "HPE_INVALID_METHOD") return methodProblem(method);
  if (code === "HPE_INVALID_CONSTANT") {
    // A raw space in the path ("GET /a b HTTP/1.1"): the parser took the path to end at the
    // space and stopped where "HTTP/" should have been. Any other bad constant is Node's.
    const spaced = /^\S+ (\/.*) HTTP\/\d\.\d$/.exec(requestLine)?.[1];
    return spaced?.includes(" ") ? rawCharactersProblem(spaced) : null;
  }
  return target.startsWith("/") ? rawCharactersProblem(target) : targetProblem(target);
}

/**
 * Puts the checks in front of `handle` (Next's request handler) on `server`: returns the request
 * listener to give it, and answers CONNECT and unparsable request lines on the socket.
 */
export function guardRequests(server, handle) {
  server.on("connect", (request, socket) => {
    refuseOnSocket(socket, methodProblem(request.method));
  });
  server.on("clientError", (error, socket) => {
    // Nothing may be written once a response on this connection has begun (Node's own rule).
    const answerable = socket.writable && socket._httpMessage?._headerSent !== true;
    const problem = answerable ? parseErrorProblem(error) : null;
    if (problem !== null) {
      refuseOnSocket(socket, problem);
      return;
    }
    // Node's answer, unchanged.
    if (answerable) socket.write(NODE_ANSWERS[error.code] ?? BAD_REQUEST);
    socket.destroy(error);
  });
  const listener = (request, response) => {
    // A request pipelined behind a refused one on the same connection: the refusal said the
    // connection ends, so it is not served (Node parses it from the same packet regardless).
    // Left unanswered, not cut off: the answers queued before the refusal, and the refusal
    // itself, still go out, then Node closes the connection as the refusal said.
    if (request.socket[REFUSED] === true) {
      request.resume();
      return;
    }
    const problem = requestLineProblem(request.method, request.url ?? "");
    if (problem === null) {
      handle(request, response);
      return;
    }
    request.socket[REFUSED] = true;
    refuse(response, problem);
  };
  // `Expect: 100-continue`: Node would answer `100 Continue` before any listener ran, inviting
  // the body of a request about to be refused. A request handed on is told to go on when its
  // body is first read, so a route that refuses it first (a foreign Host, a Content-Length over
  // its cap) answers without having invited the body.
  server.on("checkContinue", (request, response) => {
    const refused =
      request.socket[REFUSED] === true ||
      requestLineProblem(request.method, request.url ?? "") !== null;
    if (!refused) continueWhenRead(request, response);
    listener(request, response);
  });
  return listener;
}

/**
 * Sends `100 Continue` when something first asks `request` for its body (a stream's `_read`),
 * unless an answer has begun by then.
 */
function continueWhenRead(request, response) {
  const read = request._read;
  request._read = function readAfterContinue(size) {
    request._read = read;
    if (!response.headersSent && !response.writableEnded) response.writeContinue();
    return read.call(this, size);
  };
}
