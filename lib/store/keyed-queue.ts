/** Per-key ordering of async work, for a store whose connections run calls in parallel. */

/**
 * Runs `work` after every earlier call that named any of the same keys has settled, so calls
 * on one key run in call order while calls on other keys run at once. A call takes its place
 * when it is made (synchronously), so waits never form a cycle.
 */
export function keyedQueue() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(keys: readonly string[], work: () => Promise<T>): Promise<T> => {
    const unique = [...new Set(keys)];
    const before = unique.flatMap((key) => tails.get(key) ?? []);
    const result = Promise.allSettled(before).then(work);
    const settled = result.catch(() => undefined);
    for (const key of unique) tails.set(key, settled);
    // Forget a key once nothing else queued behind this call: the map stays small.
    void settled.then(() => {
      for (const key of unique) if (tails.get(key) === settled) tails.delete(key);
    });
    return result;
  };
}
