/**
 * Reads of one key that arrive together share one store call, and none is answered by a call
 * that started before it arrived: a caller joins the next call, which starts once the one in
 * flight has settled. However many callers come at once, a key has at most one call in flight
 * and one waiting (1,000 viewers opening one run's events made 1,000 look-ups of its
 * transcript, more than the pool's connections could serve within their wait), and what each
 * caller sees is as fresh as a call of its own (a transcript deleted before the request arrived
 * is seen deleted).
 */
export function coalescedRead<Value>(
  read: (key: string) => Promise<Value>,
): (key: string) => Promise<Value> {
  const running = new Map<string, Promise<Value>>();
  const waiting = new Map<string, Promise<Value>>();

  function start(key: string): Promise<Value> {
    const call = read(key).finally(() => {
      if (running.get(key) === call) running.delete(key);
    });
    running.set(key, call);
    return call;
  }

  return (key) => {
    const next = waiting.get(key);
    if (next !== undefined) return next;
    const current = running.get(key);
    if (current === undefined) return start(key);
    const after = current.then(
      () => undefined,
      () => undefined,
    );
    const queued = after.then(() => {
      waiting.delete(key);
      return start(key);
    });
    waiting.set(key, queued);
    return queued;
  };
}
