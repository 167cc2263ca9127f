/** Raw HTTP/1.1 on a socket, for the tests of what the server answers before any route runs. */
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `text` on a new connection and resolves with everything the server wrote back.
 * `afterContinue`: sent once the server answers `100 Continue` (a client's body, held back).
 */
export function sendRaw(
  port: number,
  host: string,
  text: string | Uint8Array,
  { afterContinue }: { afterContinue?: string } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    // A server that never closes (one waiting for a body never sent) ends the wait with what
    // came, so a test fails on its assertions instead of running into its timeout.
    socket.setTimeout(5000, () => socket.destroy());
    let answer = "";
    let held = afterContinue;
    socket.on("data", (data) => {
      answer += data.toString("latin1");
      if (held !== undefined && answer.startsWith("HTTP/1.1 100 Continue\r\n\r\n")) {
        socket.write(held);
        held = undefined;
      }
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
    socket.write(text);
  });
}

/** The status, headers (names lowercased) and body of the first answer in `answer`. */
export function parseRawAnswer(answer: string): RawAnswer {
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}
