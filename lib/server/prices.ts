import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { resolve } from "node:path";
import { parsePricesJson } from "../cost/parse-prices";
import type { Price } from "../cost/types";

/** Largest prices file read (`WIRESCOPE_PRICES=/path/prices.json`). */
export const MAX_PRICES_FILE_BYTES = 1024 * 1024;

export interface EnvPrices {
  prices: Record<string, Price>;
  /** Why `WIRESCOPE_PRICES` was not used (the shipped prices still are); null when fine. */
  error: string | null;
}

/**
 * The server's price overrides: `WIRESCOPE_PRICES` is JSON (`{"openai/gpt-4.1": {"input": 2,
 * "output": 8}}`) or the path of a file holding it. A bad value is reported (the error names
 * the entry and field) and ignored: the server still starts, with the shipped prices.
 */
export function readEnvPrices(env: Readonly<Record<string, string | undefined>>): EnvPrices {
  const value = env.WIRESCOPE_PRICES?.trim();
  if (value === undefined || value === "") return { prices: {}, error: null };
  const text = value.startsWith("{") ? value : readFileText(value);
  if (typeof text !== "string") return { prices: {}, error: text.error };
  const where = value.startsWith("{") ? "WIRESCOPE_PRICES" : `WIRESCOPE_PRICES (${value})`;
  const parsed = parsePricesJson(text, where);
  return parsed.ok ? { prices: parsed.prices, error: null } : { prices: {}, error: parsed.error };
}

function readFileText(path: string): string | { error: string } {
  let fd: number | undefined;
  try {
    // Non-blocking: opening a FIFO would otherwise wait for a writer, holding every request.
    fd = openSync(
      resolve(/* turbopackIgnore: true */ path),
      constants.O_RDONLY | constants.O_NONBLOCK,
    );
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { error: `WIRESCOPE_PRICES file ${path} is not a regular file` };
    const size = stat.size;
    if (size > MAX_PRICES_FILE_BYTES) {
      return { error: `WIRESCOPE_PRICES file ${path} is ${size} bytes; at most 1 MiB is read` };
    }
    const buffer = Buffer.alloc(size);
    const read = readSync(fd, buffer, 0, size, 0);
    return buffer.subarray(0, read).toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    return { error: `WIRESCOPE_PRICES file ${path} could not be read (${code})` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
