import type { TranscriptRecord } from "../protocol/records";
import { safeParseJson } from "../protocol/safe-json";
import { mergeStopSequences, type ResolvedProviderModel, secretsOf } from "../providers";
import { type CallSettings, createStreamTurn, type StreamTurn } from "../runtime/model-turn";
import { describeFailures } from "../runtime/provider-errors";
import { HAS_TRIGGER, REDACTED, redactSecretLookingDeep, redactSecrets } from "../runtime/redact";
import { redactingStreamTurn } from "../runtime/redact-stream";
import type { ServerConfig } from "./config";

/** What a run needs from its provider besides the model: settings, stream, redaction. */
export interface ProviderRun {
  /** The call settings with the dialect's stop sequences added where the model takes them. */
  settings: CallSettings;
  /** The stream adapter with the idle timeout, its failures put into words for this provider. */
  streamTurn: StreamTurn;
  /**
   * A record with every configured key's value replaced (the same record unless one is
   * present), with its JSON: the check serialises it anyway, so the run publishes that JSON
   * (`LiveRun.publish`) instead of serialising the record a second time.
   */
  redact: (record: TranscriptRecord) => RedactedRecord;
  /** Text with keys and credential-looking values replaced. */
  redactText: (text: string) => string;
}

export function providerRun(
  resolved: ResolvedProviderModel,
  settings: CallSettings,
  config: Pick<ServerConfig, "idleTimeoutMs" | "providerEnv">,
): ProviderRun {
  const secrets = [...new Set([...resolved.secrets, ...secretsOf(config.providerEnv)])];
  const stopSequences = mergeStopSequences(settings.stopSequences, resolved.stopSequences);
  const described = describeFailures(createStreamTurn({ idleTimeoutMs: config.idleTimeoutMs }), {
    label: resolved.label,
    model: resolved.id,
    secrets,
    ...(resolved.keyVariable === undefined ? {} : { keyVariable: resolved.keyVariable }),
    ...(resolved.baseURL === undefined ? {} : { baseURL: resolved.baseURL }),
    ...(resolved.baseURLVariable === undefined
      ? {}
      : { baseURLVariable: resolved.baseURLVariable }),
  });
  // Keys the model writes are redacted before the parser and the chunk records see them, so a
  // key split over several chunks cannot be joined back together from what is stored.
  const streamTurn = redactingStreamTurn(described, secrets);
  return {
    settings: { ...settings, ...(stopSequences === undefined ? {} : { stopSequences }) },
    streamTurn,
    redact: (record) => redactRecord(record, secrets),
    redactText: (text) => redactSecrets(text, secrets),
  };
}

/** A record as it is streamed and stored, and `JSON.stringify` of it. */
export interface RedactedRecord {
  record: TranscriptRecord;
  json: string;
}

/**
 * The last line of defence before a record is streamed or stored: a configured key's value
 * anywhere in it (a tool result quoting an error, say) is replaced. Secrets are looked up in
 * the record's JSON, so any field is covered; records without one pass through unchanged.
 * Text that did not come through the model's stream (tool results, errors, the user's words,
 * request records) also loses what looks like a key (`redactSecretLooking`: `sk-…`, `AIza…`,
 * vendor, AWS, Slack and Stripe keys, JWTs, a URL's password, `Bearer …`, and a credential
 * field's value when it mixes letters and digits): a tool that read a `.env` must not put its
 * keys into the transcript or the page. A result is often source code: `password: string;`
 * stays as it is, also for a later run rebuilt from the stored records. The model itself got
 * the result whole in this run (the loop keeps its own copy). The model's own text was
 * redacted as it streamed, before parsing: its chunks and parsed events are left as they are,
 * so their spans stay true.
 */
export function redactRecord(record: TranscriptRecord, secrets: readonly string[]): RedactedRecord {
  const json = JSON.stringify(record);
  const configured = withoutConfigured(record, json, secrets);
  if (!fromOutsideTheStream(configured.record) || !HAS_TRIGGER.test(configured.json))
    return configured;
  const cleaned = redactSecretLookingDeep(configured.record);
  const cleanedJson = JSON.stringify(cleaned);
  return cleanedJson === configured.json ? configured : { record: cleaned, json: cleanedJson };
}

function withoutConfigured(
  record: TranscriptRecord,
  json: string,
  secrets: readonly string[],
): RedactedRecord {
  if (secrets.length === 0) return { record, json };
  const escaped = secrets.filter((secret) => secret.length >= 8).map(jsonEscaped);
  if (!escaped.some((secret) => json.includes(secret))) return { record, json };
  let redacted = json;
  for (const secret of escaped) redacted = redacted.replaceAll(secret, REDACTED);
  const parsed = safeParseJson(redacted);
  // Serialised again (rare: a key was found) so the JSON is exactly the record's.
  return parsed.ok
    ? { record: parsed.value as TranscriptRecord, json: JSON.stringify(parsed.value) }
    : { record, json };
}

/** Records whose text did not come through the model's (already redacted) stream. */
function fromOutsideTheStream(record: TranscriptRecord): boolean {
  if (record.kind === "request") return true;
  if (record.kind !== "event") return false;
  const { type } = record.event;
  return type === "result" || type === "error" || type === "user";
}

/** A string as it appears inside JSON text (quotes and backslashes escaped). */
function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
