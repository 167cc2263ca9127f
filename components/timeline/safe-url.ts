/**
 * Model output is untrusted: a link may only go to http(s) or mailto, and nothing else
 * (`javascript:`, `data:`, `vbscript:`, relative paths into the app) survives. Returns ""
 * to drop the URL; the renderer then shows the link's text without a target. The scheme must
 * be the very first characters, so "java\nscript:" or a leading control character fails too.
 */
export function safeUrl(url: string): string {
  const trimmed = url.trim();
  return /^(?:https?:\/\/|mailto:)/i.test(trimmed) ? trimmed : "";
}
