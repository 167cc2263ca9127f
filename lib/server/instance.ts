import type { Store } from "../store";
import { purgeAbandonedImports } from "../transcripts/store-actions";
import { interruptCrashedRuns } from "./crash-recovery";
import type { RunRegistry } from "./run-registry";

/** Leases that ended this many lease periods ago are dropped from the store by the sweep. */
const FORGET_LEASES_AFTER_LEASES = 10;

export interface InstanceOptions {
  /** How long the lease lasts unrenewed (`WIRESCOPE_LEASE_MS`); renewed every third of it. */
  leaseMs: number;
  /** How often stop requests for this instance's runs are read (`WIRESCOPE_POLL_MS`). */
  pollMs: number;
  now?: () => number;
}

export interface RunningInstance {
  /** Settles once the lease is written and the runs of dead instances are marked. */
  ready: Promise<void>;
  stop(): void;
}

/**
 * This process as one of the instances sharing a database. It holds a lease in the store,
 * renewed every `leaseMs / 3`; as often, in a loop of its own (a wait there never holds the
 * lease back), it marks the runs of instances whose lease has ended as crashed
 * (`crash-recovery.ts`), so a killed instance's runs end once its lease does, and never while
 * it renews it. With each renewal it also stops its own runs that are no longer its own (it
 * stalled past its lease and another instance took them over). While it
 * has runs of its own it reads, every `pollMs`, the stop requests other instances passed
 * through the store for them.
 */
export function startInstance(
  store: Store,
  registry: RunRegistry,
  options: InstanceOptions,
): RunningInstance {
  const now = options.now ?? Date.now;
  const { instanceId } = registry;
  let stopped = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();

  // The store's health as this instance saw it. During an outage no instance could renew its
  // lease, so leases that ended then say nothing of who is alive: others' are judged only once
  // a full lease has passed with the store reachable (they have renewed by then if alive).
  let storeDown = false;
  let reachableSince: number | null = null;
  const renew = async () => {
    await store.renewLease(instanceId, now() + options.leaseMs);
    if (storeDown) reachableSince = now();
    storeDown = false;
    // Stalled past the lease (a long pause): runs of ours may have been taken over meanwhile.
    await registry.endTakenOverRuns(store);
  };
  // Apart from the renewal: marking a run may wait on a lock that a stalled instance holds (on
  // PostgreSQL until its session is ended, 30 s idle in a transaction), and the lease must not
  // wait with it, or this instance would be taken for dead in turn.
  // A run marked here is announced as finished here (its own instance is dead): live OTLP
  // export sends it once, from the instance that marked it.
  /** Others' leases cannot be judged now: the store is out of reach, or was less than a lease ago. */
  const leasesUnsure = () =>
    storeDown || (reachableSince !== null && now() - reachableSince < options.leaseMs);
  const sweep = async () => {
    if (leasesUnsure()) return;
    for (const run of await interruptCrashedRuns(store, now, instanceId))
      registry.announceFinish(run, store);
    // Leases long ended (dead instances, watch marks no one renews) go: a missing lease reads
    // as ended, so nothing changes but the table's size, which watch marks would grow a run at a time.
    await store.forgetEndedLeases?.(now() - FORGET_LEASES_AFTER_LEASES * options.leaseMs);
  };
  // Imports a dead instance was writing (hidden, never shown): purged after the runs are
  // marked, never before `ready` (requests wait for it, and a purge may take a while), and,
  // like the runs, not while an outage may have let a living writer's lease lapse.
  const purgeImports = async () => {
    if (!leasesUnsure()) await purgeAbandonedImports(store, now(), instanceId);
  };

  /**
   * Runs `task` every `ms` (the first after `first` ms), never two at once; a failure marks
   * the store down (until a renewal succeeds) and the next one tries again. Logged once when it
   * starts failing and once when it works again, not at every try (stop requests are read 10
   * times a second).
   */
  const every = (ms: number, task: () => Promise<unknown>, label: string, first = ms) => {
    let failing = false;
    const next = (wait = ms) => {
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        task()
          .then(
            () => {
              if (failing) console.error(`wirescope: could ${label} again.`);
              failing = false;
            },
            (error: unknown) => {
              storeDown = true;
              if (!failing) console.error(`wirescope: could not ${label}:`, String(error));
              failing = true;
            },
          )
          .finally(next);
      }, wait);
      timer.unref?.();
      timers.add(timer);
    };
    next(first);
  };

  registry.watch(store);
  const period = Math.max(1, Math.floor(options.leaseMs / 3));
  const renewed = renew().catch((error: unknown) => {
    storeDown = true;
    throw error;
  });
  const ready = renewed.then(sweep).then(() => undefined);
  void renewed
    .catch(() => undefined)
    .then(() => {
      every(period, renew, "renew this instance's lease");
      every(options.pollMs, () => registry.applyStopRequests(store), "read stop requests");
    });
  void ready
    .catch(() => undefined)
    .then(() => {
      every(period, sweep, "mark crashed runs");
      every(period, purgeImports, "purge the imports of dead instances", 0);
    });
  return {
    ready,
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
