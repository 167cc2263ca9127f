import { ToolFailure } from "./tool";

const MESSAGES: Record<string, (shown: string) => string> = {
  ENOENT: (shown) => `${shown} does not exist; use \`list\` to see what is there.`,
  ENOTDIR: (shown) => `${shown} is not a directory (a part of the path is a file).`,
  EISDIR: (shown) => `${shown} is a directory, not a file; use \`list\` to see inside it.`,
  EEXIST: (shown) => `${shown} cannot be created: a part of the path is an existing file.`,
  EACCES: (shown) => `${shown} cannot be accessed (permission denied).`,
  EPERM: (shown) => `${shown} cannot be accessed (operation not permitted).`,
  ENOSPC: (shown) => `${shown} could not be written: the server's disk is full.`,
  EDQUOT: (shown) => `${shown} could not be written: the server's disk quota is used up.`,
  EROFS: (shown) => `${shown} could not be written: the workspace is read-only.`,
  ENXIO: (shown) => `${shown} is not a regular file (a FIFO or device with nothing behind it).`,
  ELOOP: (shown) => `${shown} cannot be followed (too many symbolic links).`,
  ENAMETOOLONG: (shown) => `${shown} is too long a name for the file system.`,
  EMFILE: (shown) => `${shown} could not be opened: the server has too many files open.`,
  EIO: (shown) => `${shown} could not be read or written (an I/O error on the server).`,
};

/**
 * Turns the file-system errors a model can cause (a wrong name, a file used as a directory)
 * into a `ToolFailure` naming the path; anything else is rethrown as the bug it is.
 */
export function toFsFailure(error: unknown, relativePath: string): never {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = code === undefined ? undefined : MESSAGES[code];
  if (message === undefined) throw error;
  throw new ToolFailure(message(`"${relativePath}"`), { cause: error });
}
