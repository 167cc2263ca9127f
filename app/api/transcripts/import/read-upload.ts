/**
 * The uploaded transcript file as a byte stream: a raw JSONL body streams straight through; a
 * multipart `file` field is parsed first (the form parser buffers it), so multipart uploads
 * are capped lower, at `MULTIPART_MAX_BYTES`.
 */

import { BodyIdleError, idleLimited } from "@/lib/server/body-idle";

export type Upload =
  | { ok: true; body: ReadableStream<Uint8Array> | null; name?: string }
  | { ok: false; status: 400 | 408 | 413; message: string };

/** Multipart bodies carry boundaries and headers besides the file. */
const MULTIPART_OVERHEAD = 64 * 1024;
export const MULTIPART_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A raw body's reads fail with `BodyIdleError` (the route answers 408) once the client has sent
 * nothing for `idleMs`; a multipart body is refused with 408 here.
 */
export async function readUpload(
  request: Request,
  maxBytes: number,
  idleMs: number,
): Promise<Upload> {
  const type = request.headers.get("content-type") ?? "";
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  const multipart = type.toLowerCase().startsWith("multipart/form-data");
  const cap = multipart ? Math.min(maxBytes, MULTIPART_MAX_BYTES) : maxBytes;
  if (declared > cap + (multipart ? MULTIPART_OVERHEAD : 0)) return tooLarge(cap);
  let idle = false;
  const body =
    request.body === null
      ? null
      : idleLimited(request.body, idleMs, () => {
          idle = true;
        });
  // The importer counts the bytes of a raw body as they arrive.
  if (!multipart) return { ok: true, body };

  let over = false;
  const capped =
    body === null
      ? null
      : body.pipeThrough(
          byteCap(cap + MULTIPART_OVERHEAD, () => {
            over = true;
          }),
        );
  let form: FormData;
  try {
    form = await new Request(request.url, {
      method: "POST",
      headers: { "content-type": type },
      body: capped,
      duplex: "half",
    } as RequestInit).formData();
  } catch {
    if (over) return tooLarge(cap);
    if (idle) return { ok: false, status: 408, message: new BodyIdleError(idleMs).message };
    return { ok: false, status: 400, message: "body: not a valid multipart form." };
  }
  const file = form.get("file") ?? [...form.values()].find((value) => typeof value !== "string");
  if (file === undefined || file === null || typeof file === "string")
    return {
      ok: false,
      status: 400,
      message: 'file: send the transcript as the form field "file".',
    };
  if (file.size > cap) return tooLarge(cap);
  const name = file.name.trim();
  return { ok: true, body: file.stream(), ...(name === "" ? {} : { name: name.slice(0, 200) }) };
}

/** Passes bytes through until more than `max` went by, then fails the stream. */
function byteCap(max: number, onOver: () => void): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max) {
        onOver();
        controller.error(new Error("The upload is over the limit."));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

function tooLarge(maxBytes: number): Upload {
  const megabytes = Math.round((maxBytes / 1024 / 1024) * 10) / 10;
  return {
    ok: false,
    status: 413,
    message: `body: the file is larger than the limit of ${megabytes} MB.`,
  };
}
