/** A response the browser saves as a file, named after the transcript's title. */
export function download(
  body: string | ReadableStream<Uint8Array>,
  type: string,
  name: string,
): Response {
  return new Response(body, {
    headers: {
      "content-type": `${type}; charset=utf-8`,
      "content-disposition": `attachment; filename="${asciiName(name)}"; filename*=UTF-8''${encodeRfc5987(name)}`,
      "cache-control": "no-store",
    },
  });
}

/** A file name from a title: its words, no path or control characters. */
export function fileName(title: string): string {
  const cleaned = title
    .normalize("NFC")
    .replace(/[\p{C}/\\:*?"<>|]+/gu, " ")
    .replace(/\s+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 80);
  return cleaned === "" ? "transcript" : cleaned;
}

function asciiName(name: string): string {
  const ascii = name
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/["\\]/g, "");
  return ascii.replace(/^[-.]+/, "") || "transcript";
}

/** Percent-encoding for `filename*`: also the characters `encodeURIComponent` leaves alone. */
function encodeRfc5987(text: string): string {
  return encodeURIComponent(text).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
