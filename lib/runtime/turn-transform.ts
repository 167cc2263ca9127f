import type { TurnPart } from "./model-turn";

/** Hands on the parts one turn part becomes (none, itself, or several) by pushing them to `out`. */
export type PartStep = (part: TurnPart, out: TurnPart[]) => void;

/**
 * `parts` with each part put through `step`, and `end` called once the parts are over (it may
 * push last parts). What an async generator with `for await … yield` does, at one promise per
 * part instead of the generator's several (issue 19: a demo run reads a part per record, and
 * the stream passes two such layers, failure wording and redaction, on its way to the loop).
 * A layer over another made here joins it: the steps run one after the other on the same read,
 * so the layers together cost one promise a part, not one each.
 * Stopping early (`return`) stops `parts` too; a `step` that throws stops them and rejects.
 */
export function transformParts(
  parts: AsyncIterable<TurnPart>,
  step: PartStep,
  end?: (out: TurnPart[]) => void,
): AsyncIterable<TurnPart> {
  const layer: Layer = end === undefined ? { step } : { step, end };
  return parts instanceof TransformedParts
    ? new TransformedParts(parts.source, [...parts.layers, layer])
    : new TransformedParts(parts, [layer]);
}

interface Layer {
  step: PartStep;
  end?: (out: TurnPart[]) => void;
}

class TransformedParts implements AsyncIterable<TurnPart> {
  constructor(
    readonly source: AsyncIterable<TurnPart>,
    /** Innermost first. */
    readonly layers: readonly Layer[],
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<TurnPart> {
    // Joined per iteration: each holds its own array between two layers.
    const joined = this.layers.reduce(join);
    return transformIterator(this.source[Symbol.asyncIterator](), joined.step, joined.end);
  }
}

/** `outer` applied to whatever `inner` hands on, in order; `inner`'s end before `outer`'s. */
function join(inner: Layer, outer: Layer): Layer {
  const handed: TurnPart[] = [];
  const onward = (out: TurnPart[]) => {
    for (let index = 0; index < handed.length; index++) {
      outer.step(handed[index] as TurnPart, out);
    }
    handed.length = 0;
  };
  return {
    step(part, out) {
      inner.step(part, handed);
      onward(out);
    },
    end(out) {
      inner.end?.(handed);
      onward(out);
      outer.end?.(out);
    },
  };
}

function transformIterator(
  source: AsyncIterator<TurnPart>,
  step: PartStep,
  end: ((out: TurnPart[]) => void) | undefined,
): AsyncIterator<TurnPart> {
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
}

const DONE: IteratorResult<TurnPart> = { done: true, value: undefined };
