import { closeSync, openSync, readSync } from 'node:fs';
import { canonical_digits_max } from './text-ids.js';

/**
 * A streaming CSV reader over one file (RFC 4180 quoting: a field in double quotes may hold the
 * delimiter, line breaks and `""` for a quote). It reads fixed-size chunks and hands out one row at a
 * time as offsets into the chunk, so a caller converts only the fields it needs and no row becomes an
 * array of strings. `\r\n` and `\n` both end a row.
 */
export const csv_chunk_bytes = 4 * 1024 * 1024;

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

export interface CsvRowView {
  /** The 1-based line on which the row starts. */
  readonly line: number;
  /** Number of fields in the row. */
  readonly fields: number;
  /** The text of field i (quotes removed, `""` unescaped). */
  text(i: number): string;
  /** Whether field i is empty and was not quoted (an absent value). */
  absent(i: number): boolean;
}

export class CsvReader implements CsvRowView {
  private buf: Buffer;
  /** Valid bytes in buf are [0, end); the next row starts at pos. */
  private end = 0;
  private pos = 0;
  private eof = false;
  private fd: number;
  private nextLine = 1;
  line = 0;
  fields = 0;
  /** Bytes of the file consumed so far, for progress. */
  consumed = 0;
  /** Field i spans [starts[i], ends[i]) of buf; flags[i]: 1 quoted, 2 holds `""`. */
  private starts = new Int32Array(64);
  private ends = new Int32Array(64);
  private flags = new Uint8Array(64);

  constructor(
    readonly path: string,
    private readonly delimiter: number,
    chunk_bytes = csv_chunk_bytes,
  ) {
    this.buf = Buffer.allocUnsafe(chunk_bytes);
    this.fd = openSync(path, 'r');
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  /** Reads the next row; false at the end of the file. Blank lines are skipped. */
  next(): boolean {
    for (;;) {
      if (this.pos >= this.end && !this.fill()) return false;
      // A row that runs past the bytes read so far is parsed again once more are read (at the end
      // of the file parseRow always completes).
      while (this.parseRow() === 'more') this.fill();
      if (this.fields > 0) return true; // else a blank line
    }
  }

  text(i: number): string {
    const s = this.buf.toString('utf8', this.starts[i]!, this.ends[i]!);
    return (this.flags[i]! & 2) !== 0 ? s.replaceAll('""', '"') : s;
  }

  /**
   * Field i as a safe integer read straight from the bytes (optional sign, digits, surrounding
   * spaces), or NaN when it is not one: integer ids need no string.
   */
  integer(i: number): number {
    const buf = this.buf;
    let p = this.starts[i]!;
    let e = this.ends[i]!;
    while (p < e && buf[p] === 0x20) p++;
    while (e > p && buf[e - 1] === 0x20) e--;
    let negative = false;
    if (p < e && (buf[p] === 0x2d || buf[p] === 0x2b)) negative = buf[p++] === 0x2d;
    if (p === e || e - p > 16) return Number.NaN;
    let v = 0;
    for (; p < e; p++) {
      const d = buf[p]! - 0x30;
      if (d < 0 || d > 9) return Number.NaN;
      v = v * 10 + d;
    }
    if (!Number.isSafeInteger(v)) return Number.NaN;
    return negative ? -v : v;
  }

  /**
   * Field i as a number when its text is a canonical decimal integer (see text-ids.ts), else NaN:
   * the same answer as canonicalInteger(text(i)), without making the string.
   */
  canonicalInteger(i: number): number {
    const buf = this.buf;
    const p = this.starts[i]!;
    const e = this.ends[i]!;
    const length = e - p;
    if (length === 0 || length > canonical_digits_max || (length > 1 && buf[p] === 0x30)) return Number.NaN;
    let v = 0;
    for (let q = p; q < e; q++) {
      const d = buf[q]! - 0x30;
      if (d < 0 || d > 9) return Number.NaN;
      v = v * 10 + d;
    }
    return v;
  }

  absent(i: number): boolean {
    return this.starts[i] === this.ends[i] && (this.flags[i]! & 1) === 0;
  }

  /**
   * Parses one row at `pos`. Answers 'more' (pos unchanged) when the row may continue past the bytes
   * read so far and the file has more.
   */
  private parseRow(): 'row' | 'more' {
    const buf = this.buf;
    const end = this.end;
    const d = this.delimiter;
    let p = this.pos;
    let n = 0;
    let lines = 0;
    for (;;) {
      if (n === this.starts.length) this.grow();
      if (p < end && buf[p] === QUOTE) {
        let q = p + 1;
        let escaped = 0;
        for (;;) {
          while (q < end && buf[q] !== QUOTE) {
            if (buf[q] === LF) lines++;
            q++;
          }
          if (q >= end) {
            if (!this.eof) return 'more';
            throw new CsvError(this.path, this.nextLine, 'a quoted field is not closed before the end of the file');
          }
          if (q + 1 >= end && !this.eof) return 'more';
          if (q + 1 < end && buf[q + 1] === QUOTE) {
            escaped = 2;
            q += 2;
            continue;
          }
          break;
        }
        this.starts[n] = p + 1;
        this.ends[n] = q;
        this.flags[n] = 1 | escaped;
        n++;
        p = q + 1;
        if (p < end && buf[p] === CR) p++;
        if (p < end && buf[p] !== d && buf[p] !== LF) {
          throw new CsvError(this.path, this.nextLine, 'a quoted field is followed by text before the next delimiter');
        }
      } else {
        let q = p;
        while (q < end && buf[q] !== d && buf[q] !== LF) q++;
        if (q >= end && !this.eof) return 'more';
        const fieldEnd = q > p && buf[q - 1] === CR && (q >= end || buf[q] === LF) ? q - 1 : q;
        this.starts[n] = p;
        this.ends[n] = fieldEnd;
        this.flags[n] = 0;
        n++;
        p = q;
      }
      if (p >= end) {
        if (!this.eof) return 'more';
        break;
      }
      if (buf[p] === d) {
        p++;
        continue;
      }
      p++; // buf[p] is LF: the row ends
      lines++;
      break;
    }
    this.line = this.nextLine;
    this.nextLine += lines;
    this.fields = n === 1 && this.starts[0] === this.ends[0] && this.flags[0] === 0 ? 0 : n;
    this.consumed += p - this.pos;
    this.pos = p;
    return 'row';
  }

  /** Moves unread bytes to the front and reads more; false when nothing is left at all. */
  private fill(): boolean {
    if (this.eof) return this.pos < this.end;
    const rest = this.end - this.pos;
    if (rest === this.buf.length) {
      // One row is longer than the buffer: double it.
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, this.pos, this.end);
      this.buf = bigger;
    } else if (rest > 0) {
      this.buf.copy(this.buf, 0, this.pos, this.end);
    }
    this.pos = 0;
    this.end = rest;
    const got = readSync(this.fd, this.buf, rest, this.buf.length - rest, null);
    this.end += got;
    if (got === 0) this.eof = true;
    return this.end > 0;
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const s = new Int32Array(size);
    s.set(this.starts);
    this.starts = s;
    const e = new Int32Array(size);
    e.set(this.ends);
    this.ends = e;
    const f = new Uint8Array(size);
    f.set(this.flags);
    this.flags = f;
  }
}

/** A file that is not CSV (an unclosed quote): the import stops. */
export class CsvError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}
