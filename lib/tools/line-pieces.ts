export interface LinePiece {
  bytes: Buffer;
  /** True when the piece ends with the line's "\n". */
  endsLine: boolean;
}

/**
 * Splits a byte stream into pieces that never cross a newline, so a reader can count lines
 * and keep only the ones it wants without ever holding a whole (possibly huge) line.
 */
export async function* linePieces(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
): AsyncGenerator<LinePiece> {
  for await (const chunk of chunks) {
    let from = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, from)) {
      yield { bytes: chunk.subarray(from, newline + 1), endsLine: true };
      from = newline + 1;
    }
    if (from < chunk.length) yield { bytes: chunk.subarray(from), endsLine: false };
  }
}
