/**
 * Instances on one PostgreSQL database judge each other's leases by their own clocks
 * (docs/live-runs.md, "Several instances"): one whose clock runs ahead by more than a third of
 * the lease takes living instances for dead (their runs marked crashed, their imports purged).
 * At open, the server compares its clock with the database's and says so in its log.
 */
import type pg from "pg";

/** A difference above this is logged: a third of the default 15 s lease. */
export const CLOCK_SKEW_WARN_MS = 5000;

/** The log line for a clock `skewMs` ahead of the database's (behind when negative), if any. */
export function clockSkewWarning(skewMs: number, where: string): string | undefined {
  if (Math.abs(skewMs) <= CLOCK_SKEW_WARN_MS) return undefined;
  const seconds = (Math.abs(skewMs) / 1000).toFixed(1);
  return (
    `wirescope: this server's clock is ${seconds} s ${skewMs > 0 ? "ahead of" : "behind"} the database's (${where}). ` +
    "Instances judge each other's leases by their own clocks: set the clocks right (NTP), or one may take a living instance for dead and mark its runs crashed."
  );
}

/** This process's clock minus the database's, in ms (the query's round trip counted half). */
export async function clockSkew(client: pg.ClientBase, now: () => number): Promise<number> {
  const sent = now();
  const { rows } = await client.query<{ at: string }>(
    "SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint AS at",
  );
  const received = now();
  return (sent + received) / 2 - Number(rows[0]?.at);
}
