import { constants, type Stats } from "node:fs";
import { lstat } from "node:fs/promises";
import { toFsFailure } from "./fs-failure";
import { ToolFailure } from "./tool";

/**
 * Open flags that never wait: opening a FIFO blocks until its other end opens, and a blocked
 * `open()` holds one of libuv's four file-system threads for good. With `O_NONBLOCK` it
 * returns at once (or fails with ENXIO); for regular files the flag changes nothing.
 */
export const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
export const WRITE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NONBLOCK;

/**
 * What is at `absolute` (a path `workspace.resolve` returned), looked at with `lstat` so
 * nothing is opened: a regular file or a directory, or a `ToolFailure` for anything else
 * (FIFO, socket, device) and for nothing there.
 */
export async function plainEntry(absolute: string, file: string): Promise<Stats> {
  const stats = await lstat(absolute).catch((error: unknown) => toFsFailure(error, file));
  refuseSpecial(stats, file);
  return stats;
}

/** `plainEntry`, or `undefined` when nothing is there yet (a file about to be written). */
export async function plainEntryIfAny(absolute: string, file: string): Promise<Stats | undefined> {
  const stats = await lstat(absolute).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return toFsFailure(error, file);
  });
  if (stats !== undefined) refuseSpecial(stats, file);
  return stats;
}

/** A `ToolFailure` unless `stats` is a regular file or a directory. */
export function refuseSpecial(stats: Stats, file: string): void {
  if (stats.isFile() || stats.isDirectory()) return;
  throw new ToolFailure(
    `"${file}" is ${kindOf(stats)}, not a regular file; the tools only read and write regular files.`,
  );
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSymbolicLink()) return "a symbolic link";
  return "a special file";
}
