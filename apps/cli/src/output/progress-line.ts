export interface TProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * A status line on stderr. On a terminal it is rewritten in place; in a log (CI, a pipe) each
 * new text is one line, and an unchanged text is not repeated, so a long wait stays readable.
 */
export class ProgressLine {
  private last: string | undefined;

  constructor(private readonly stream: TProgressStream = process.stderr) {}

  update(text: string): void {
    if (this.stream.isTTY) {
      // A line wider than the terminal wraps, and \r would then rewrite only its last part.
      const width = this.stream.columns ?? 0;
      const shown = width > 1 && text.length >= width ? `${text.slice(0, width - 2)}…` : text;
      this.stream.write(`\r\x1b[2K${shown}`);
    } else if (text !== this.last) {
      this.stream.write(`${text}\n`);
    }
    this.last = text;
  }

  /** Ends the line so what follows starts on its own. */
  done(): void {
    if (this.stream.isTTY && this.last !== undefined) this.stream.write('\n');
    this.last = undefined;
  }
}
