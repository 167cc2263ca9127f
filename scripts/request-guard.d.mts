import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

export interface RequestProblem {
  status: 400 | 405;
  error: string;
  /** With 405: the methods the app's routes serve. */
  allow?: string;
}

export const SERVED_METHODS: readonly string[];
export function requestLineProblem(method: string, target: string): RequestProblem | null;
export function parseErrorProblem(error: {
  code?: string;
  rawPacket?: Buffer;
  bytesParsed?: number;
}): RequestProblem | null;
export function refuse(response: ServerResponse, problem: RequestProblem): void;
export function refuseOnSocket(socket: Duplex, problem: RequestProblem): void;
export function guardRequests(
  server: Server,
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): (request: IncomingMessage, response: ServerResponse) => void;
