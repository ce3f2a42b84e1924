// The start of a line that goes on in the next pieces of a file. Its pieces are kept as they came
// and joined once, when the line ends: joining at every piece and searching the whole again made
// one long line cost the square of its length. Past the line limit the file is not read further.
import { type ReadLimitError, tooLongError } from './limits.js';

/** The pieces of an unfinished line, bounded by the line limit. */
export class LineCarry {
  private parts: Buffer[] = [];
  private bytes = 0;

  /**
   * @param file - the file, for the error
   * @param max - the longest line, in bytes
   */
  constructor(
    private readonly file: string,
    private readonly max: number,
  ) {}

  /** Whether no line is unfinished. */
  get empty(): boolean {
    return this.bytes === 0;
  }

  /**
   * Keeps more of the unfinished line.
   * @param part - its next bytes
   * @param line - its line number, for the error
   * @throws ReadLimitError when the line is now past the limit
   */
  add(part: Buffer, line: number): void {
    if (part.length === 0) return;
    this.bytes += part.length;
    // A CR at the end may be half of the line break: it is not counted until the line ends.
    if (this.bytes - (part[part.length - 1] === 0x0d ? 1 : 0) > this.max) this.fail(line);
    this.parts.push(part);
  }

  /**
   * The whole line: the bytes kept, then `end`; the carry is empty after.
   * @param end - the rest of the line, without its `\n` (none for the last line of a file)
   * @param line - its line number, for the error
   * @returns its bytes, a `\r` before the `\n` included
   * @throws ReadLimitError when the line, without that `\r`, is past the limit
   */
  take(end: Buffer, line: number): Buffer {
    const whole =
      this.bytes === 0 ? end : Buffer.concat([...this.parts, end], this.bytes + end.length);
    this.parts = [];
    this.bytes = 0;
    if (whole.length - (whole[whole.length - 1] === 0x0d ? 1 : 0) > this.max) this.fail(line);
    return whole;
  }

  /** The error for line `line`. */
  private fail(line: number): never {
    this.parts = [];
    this.bytes = 0;
    throw lineTooLong(this.file, line, this.max);
  }
}

/**
 * The error for a line past the line limit.
 * @param file - the file
 * @param line - the line
 * @param max - the limit, in bytes
 * @returns the error
 */
export function lineTooLong(file: string, line: number, max: number): ReadLimitError {
  return tooLongError(file, line, 'maxLineBytes', max, 'the line');
}
