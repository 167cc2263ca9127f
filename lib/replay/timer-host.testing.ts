import type { TimerHost } from "./clock";

/** A clock and timers that move only when the test says so. */
export function fakeTimerHost() {
  let time = 0;
  let ids = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const host: TimerHost & { advance(ms: number): void; pending(): number } = {
    now: () => time,
    setTimeout(callback, ms) {
      timers.set(++ids, { at: time + ms, callback });
      return ids;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const end = time + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, timer]) => timer.at <= end)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (due === undefined) break;
        timers.delete(due[0]);
        time = due[1].at;
        due[1].callback();
      }
      time = end;
    },
    pending: () => timers.size,
  };
  return host;
}
