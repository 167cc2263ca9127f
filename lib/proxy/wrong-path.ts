/**
 * What a request under `/proxy` that no base URL serves is told (docs/capture-proxy.md). The usual cause is
 * an agent's base URL set without its `/v1` (`…/proxy/openai` + `/chat/completions`): the
 * agent's SDK then reads Next's HTML 404 page and reports a parse error that names nothing.
 */
import { PROXY_NAMES } from "./names";

/** The 404 body's `error` for `pathname` (a path under `/proxy` outside every `/proxy/<name>/v1/…`). */
export function wrongProxyPath(pathname: string): string {
  const shown = pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname;
  const name = /^\/proxy\/([^/]+)/.exec(pathname)?.[1];
  const known = PROXY_NAMES.find((candidate) => candidate === name);
  if (known === undefined) {
    const choice = name === undefined ? "a proxy name" : `no proxy for "${name.slice(0, 40)}"`;
    return `path: ${choice} in "${shown}"; a base URL is /proxy/<name>/v1 with <name> one of ${PROXY_NAMES.join(", ")}.`;
  }
  const base = `/proxy/${known}/v1`;
  if (pathname.replace(/\/+$/, "") === base)
    return `path: ${base} is the ${known} proxy's base URL: an agent calls paths under it (${base}/chat/completions, ${base}/models, …).`;
  return `path: "${shown}" is not under the ${known} proxy's base URL ${base} (set the agent's base URL to end in /v1).`;
}
