/**
 * Event ids in a transcript file (docs/events.md): each event has one of its own, but for the
 * pieces of one think or respond block, which share theirs. The page, replay and the exports
 * tell events apart by id (pieces are joined by it), so two events under one id would show
 * as one: import refuses the second, naming its line, as it names any other bad line.
 */
import type { FileRecord } from "./header";

/** Words a slot takes: the id's two hashes, the line it was first on, its block's hash. */
const SLOT = 4;
const FIRST_SLOTS = 1024;
/**
 * Ids checked at most in one file: 2^21 slots of 16 bytes, 32 MiB, whatever the file's size (a
 * 1 GiB file of small events holds 15 million; kept all, they took 768 MiB an import). Past
 * it ids are no longer checked: more events than any transcript this app makes.
 */
export const MAX_CHECKED_IDS = 1_000_000;

/**
 * The ids seen so far in one file, kept as 64-bit hashes in one typed array (16–32 bytes an
 * event, where a `Map` of the ids themselves took 123 MB for 1,000,000 ids of 45 characters):
 * an import's memory grows with its events by a fraction of their text. Two ids taken for one
 * by their hashes: about one file in 10^5 of 17 million events (the most 1 GiB holds).
 */
export class EventIds {
  private slots = new Uint32Array(FIRST_SLOTS * SLOT);
  private used = 0;
  /** Slots looked at past the first, over every `check` (tests: it stays a few per id). */
  probes = 0;

  /**
   * `seeds`: the two hashes' starting values, random for each file unless given (tests). A
   * file's author who knew them could give thousands of ids one slot (ids that hash alike are
   * easy to make for a fixed start), each then checked against all the others before it:
   * quadratic time, minutes for a file of a few MB.
   */
  constructor(
    private readonly seeds: readonly [number, number] = randomSeeds(),
    /** Ids checked at most (`MAX_CHECKED_IDS`; fewer in tests). */
    private readonly maxIds = MAX_CHECKED_IDS,
  ) {}

  /** Distinct ids noted so far (at most the bound). */
  get checked(): number {
    return this.used;
  }

  /** Notes the record's event id; a message (for `line N: …`) when it is another's. */
  check(record: FileRecord, line: number): string | undefined {
    if (record.kind !== "event" || this.used >= this.maxIds) return undefined;
    const { event } = record;
    // A piece's block: what later pieces under its id must share (type, turn, run, parent).
    const block =
      event.type === "think" || event.type === "respond"
        ? (hash(
            `${event.type}\u0000${event.turn}\u0000${record.runId ?? ""}\u0000${event.parent ?? ""}`,
            0x9e3779b9,
          ) |
            1) >>>
          0
        : 0;
    // Two hashes of different multipliers: 64 bits, so ids taken for one are rare.
    const high = hash(event.id, this.seeds[0]);
    const low = hash(event.id, this.seeds[1], 0x5bd1e995);
    const slots = this.slots;
    const mask = slots.length / SLOT - 1;
    let at = low & mask;
    for (; slots[at * SLOT + 2] !== 0; at = (at + 1) & mask, this.probes++) {
      if (slots[at * SLOT] !== high || slots[at * SLOT + 1] !== low) continue;
      if (block !== 0 && slots[at * SLOT + 3] === block) return undefined;
      return `event.id: ${JSON.stringify(event.id)} is already the id of the event on line ${slots[at * SLOT + 2]}; each event has an id of its own (only the pieces of one think or respond block, in one turn and run, share one).`;
    }
    slots.set([high, low, line, block], at * SLOT);
    if (++this.used * 2 > mask + 1) this.grow();
    return undefined;
  }

  /** Twice the slots, every id placed again. */
  private grow(): void {
    const old = this.slots;
    const slots = new Uint32Array(old.length * 2);
    const mask = slots.length / SLOT - 1;
    for (let from = 0; from < old.length; from += SLOT) {
      if (old[from + 2] === 0) continue;
      let at = (old[from + 1] as number) & mask;
      while (slots[at * SLOT + 2] !== 0) at = (at + 1) & mask;
      slots.set(old.subarray(from, from + SLOT), at * SLOT);
    }
    this.slots = slots;
  }
}

/** Two random 32-bit starting values. */
function randomSeeds(): [number, number] {
  const [high, low] = globalThis.crypto.getRandomValues(new Uint32Array(2));
  return [high as number, low as number];
}

/** A 32-bit hash of `text` (FNV-1a over UTF-16 units, from `seed`, mixed at the end). */
function hash(text: string, seed: number, multiplier = 0x01000193): number {
  let value = seed;
  for (let index = 0; index < text.length; index++)
    value = Math.imul(value ^ text.charCodeAt(index), multiplier);
  value ^= value >>> 16;
  value = Math.imul(value, 0x85ebca6b);
  value ^= value >>> 13;
  return value >>> 0;
}
