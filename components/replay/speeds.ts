import { REPLAY_SPEEDS, type ReplaySpeed } from "@/lib/replay/clock";

/** "0.25×" … "16×", and "Instant". */
export function speedLabel(speed: ReplaySpeed): string {
  return speed === "instant" ? "Instant" : `${speed}×`;
}

/** The replay speeds as a `<select>` offers them. */
export const SPEED_OPTIONS = REPLAY_SPEEDS.map((speed) => ({
  value: String(speed),
  label: speedLabel(speed),
}));

/** A `<select>` value back to a speed; anything not offered is `undefined`. */
export function parseSpeed(value: string): ReplaySpeed | undefined {
  return REPLAY_SPEEDS.find((speed) => String(speed) === value);
}

/** Replay time: "0:03.2", "12:04.0", "1:02:03". */
export function formatReplayTime(ms: number): string {
  const safe = Number.isFinite(ms) && ms > 0 ? ms : 0;
  const tenths = Math.floor(safe / 100);
  const seconds = Math.floor(tenths / 10);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor(seconds / 60) % 60;
  const secs = String(seconds % 60).padStart(2, "0");
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${secs}`;
  return `${minutes}:${secs}.${tenths % 10}`;
}
