import { readNumber, SETTINGS } from "../server/settings";

/**
 * How long a proxied upstream may send nothing (`WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S`):
 * before its answer's headers, and between two reads of its body while the client waits for
 * more. Generous by default, as long as the providers' own SDKs wait (10 minutes): a call that
 * does not stream sends no headers until its whole answer is ready, and a reasoning model may
 * think for minutes first.
 */
export const DEFAULT_UPSTREAM_IDLE_MS = SETTINGS.proxyUpstreamIdleTimeoutS.fallback * 1000;

/** `WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S` in ms: a positive number of seconds, else the default. */
export function readUpstreamIdleMs(env: Record<string, string | undefined> = process.env): number {
  return readNumber(env, SETTINGS.proxyUpstreamIdleTimeoutS) * 1000;
}

/** No answer (not even headers) in time: the recorded error; the 504 says it too, after `upstream: `. */
export function noAnswerMessage(upstream: string, idleMs: number): string {
  return `The ${upstream} upstream sent no answer for ${idleMs / 1000} s (WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S); the call was given up.`;
}

/** The recorded `provider` error of an answer the upstream stopped sending mid-way. */
export function stalledMessage(upstream: string, idleMs: number): string {
  return `The ${upstream} upstream sent nothing for ${idleMs / 1000} s mid-answer (WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S): it timed out, and the call was broken off.`;
}
