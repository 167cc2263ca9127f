import type { Emitter } from "./emitter";
import { TextRun } from "./text-run";

/**
 * Text a tag dialect's answer has outside any block (`tag-parser.ts`): a response streamed as
 * pieces (xml, hermes), or one `stray_text` error per run of it (action), reported when the
 * run ends (`close`: at the next block or the end).
 */
export class OutsideText {
  private run = new TextRun();
  private id: string | null = null;
  private stray: string[] = [];
  private strayStart = 0;
  private strayEnd = 0;

  constructor(
    private readonly emit: Emitter,
    private readonly as: "respond" | "stray",
    /** The dialect's name, for the stray text's message. */
    private readonly dialect: string,
  ) {}

  append(text: string, at: number): void {
    const shown = this.run.append(text, at);
    if (shown !== null) this.shown(shown);
  }

  close(): void {
    const held = this.run.close();
    if (held !== null) this.shown(held);
    if (this.stray.length > 0) {
      const raw = this.stray.join("");
      const message = `Text outside any block is not part of the ${this.dialect} protocol; it was not executed or shown as a response.`;
      const span = { start: this.strayStart, end: this.strayEnd };
      this.emit.error("stray_text", message, span, { raw });
      this.stray = [];
    }
    this.run = new TextRun();
    this.id = null;
  }

  private shown(shown: string): void {
    const { start, end } = this.run;
    if (this.as === "respond") {
      this.id ??= this.emit.nextId();
      this.emit.piece("respond", this.id, shown, start, end);
      return;
    }
    if (this.stray.length === 0) this.strayStart = start;
    this.stray.push(shown);
    this.strayEnd = end;
  }
}
