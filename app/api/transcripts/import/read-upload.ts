/** Reading an uploaded transcript file: a raw JSONL body or a multipart `file` field, capped. */

export type Upload = { ok: true; text: string } | { ok: false; status: 400 | 413; message: string };

/** Multipart bodies carry boundaries and headers besides the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

export async function readUpload(request: Request, maxBytes: number): Promise<Upload> {
  const type = request.headers.get("content-type") ?? "";
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  const multipart = type.toLowerCase().startsWith("multipart/form-data");
  if (declared > maxBytes + (multipart ? MULTIPART_OVERHEAD : 0)) return tooLarge(maxBytes);
  if (!multipart) return readCapped(request.body, maxBytes);

  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { ok: false, status: 400, message: "body: not a valid multipart form." };
  }
  const file = form.get("file") ?? [...form.values()].find((value) => typeof value !== "string");
  if (file === undefined || file === null || typeof file === "string")
    return {
      ok: false,
      status: 400,
      message: 'file: send the transcript as the form field "file".',
    };
  if (file.size > maxBytes) return tooLarge(maxBytes);
  return decode(new Uint8Array(await file.arrayBuffer()));
}

async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Upload> {
  if (body === null) return decode(new Uint8Array());
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return tooLarge(maxBytes);
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return decode(bytes);
}

function decode(bytes: Uint8Array): Upload {
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, status: 400, message: "The file is not UTF-8 text." };
  }
}

function tooLarge(maxBytes: number): Upload {
  const megabytes = Math.round((maxBytes / 1024 / 1024) * 10) / 10;
  return {
    ok: false,
    status: 413,
    message: `The file is larger than the limit of ${megabytes} MB.`,
  };
}
