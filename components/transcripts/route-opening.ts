/**
 * Whether the transcript of the page's own URL (`/t/<id>`) is still to be opened: true in the
 * server's HTML and until the page opens that transcript, another one, or a new conversation
 * (from then on the store's `opening` says what is being read).
 */
let routeOpened = false;
const listeners = new Set<() => void>();

export function routePending(): boolean {
  return !routeOpened;
}

export function onRouteSettled(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function settleRoute(): void {
  if (routeOpened) return;
  routeOpened = true;
  for (const listener of listeners) listener();
}
