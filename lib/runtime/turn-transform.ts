import type { TurnPart } from "./model-turn";

/** Hands on the parts one turn part becomes (none, itself, or several) by pushing them to `out`. */
export type PartStep = (part: TurnPart, out: TurnPart[]) => void;

/**
 * `parts` with each part put through `step`, and `end` called once the parts are over (it may
 * push last parts). What an async generator with `for await … yield` does, at one promise per
 * part instead of the generator's several (issue 19: a demo run reads a part per record, and
 * the stream passes two such layers, failure wording and redaction, on its way to the loop).
 * Stopping early (`return`) stops `parts` too; a `step` that throws stops them and rejects.
 */
export function transformParts(
  parts: AsyncIterable<TurnPart>,
  step: PartStep,
  end?: (out: TurnPart[]) => void,
): AsyncIterable<TurnPart> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<TurnPart> {
      const source = parts[Symbol.asyncIterator]();
      const out: TurnPart[] = [];
      let head = 0;
      let over = false;
      const queued = (): IteratorResult<TurnPart> | undefined => {
        if (head >= out.length) return undefined;
        const value = out[head++] as TurnPart;
        if (head === out.length) {
          out.length = 0;
          head = 0;
        }
        return { done: false, value };
      };
      const onNext = (
        result: IteratorResult<TurnPart>,
      ): IteratorResult<TurnPart> | Promise<IteratorResult<TurnPart>> => {
        try {
          if (result.done) {
            over = true;
            end?.(out);
          } else {
            step(result.value, out);
          }
        } catch (error) {
          over = true;
          return Promise.resolve(source.return?.()).then(() => Promise.reject(error));
        }
        return queued() ?? (over ? DONE : source.next().then(onNext));
      };
      return {
        next() {
          const ready = queued();
          if (ready !== undefined) return Promise.resolve(ready);
          if (over) return Promise.resolve(DONE);
          return source.next().then(onNext);
        },
        async return() {
          over = true;
          out.length = 0;
          head = 0;
          await source.return?.();
          return DONE;
        },
      };
    },
  };
}

const DONE: IteratorResult<TurnPart> = { done: true, value: undefined };
