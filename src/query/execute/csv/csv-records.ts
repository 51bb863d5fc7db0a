import { CypherError } from '../../errors.js';

/**
 * The records of a CSV text fed in pieces, as LOAD CSV reads them (Neo4j 5 Cypher manual, "LOAD CSV",
 * CSV file format): UTF-8 text, a byte order mark at the start dropped; records end at `\n` or `\r\n`;
 * fields end at the field terminator (`,` unless FIELDTERMINATOR names another character); a field in
 * double quotes may hold the terminator, line breaks and a quote written `""` or `\"`; a field empty and
 * unquoted is null, `""` the empty string. Blank lines are skipped but counted.
 *
 * The text is kept from the start of the record being read: a record that runs past the text fed so
 * far is parsed again once more arrives, so memory holds about one piece plus one record.
 */
export interface CsvRecord {
  readonly fields: (string | null)[];
  /** The 1-based line of the file on which the record starts. */
  readonly line: number;
}

/** The longest record LOAD CSV reads, in UTF-16 code units; a longer one (an unclosed quote, most likely) fails the statement. */
export const csv_record_chars_max = 32 * 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LF = 0x0a;
const CR = 0x0d;

export class CsvRecords {
  private text = '';
  /** Where the next record starts in `text`. */
  private pos = 0;
  /** The line of the file `pos` is on. */
  private line = 1;
  private ended = false;
  private started = false;
  /** The terminator's code unit when it is one (every character but those beyond U+FFFF), else -1. */
  private readonly unit: number;

  constructor(
    /** One character (code point). */
    private readonly terminator: string,
    /** Names the source in errors (the URL). */
    private readonly source: string,
  ) {
    this.unit = terminator.length === 1 ? terminator.charCodeAt(0) : -1;
  }

  /** Adds the next piece of the text. */
  push(piece: string): void {
    // The mark can only be the first character of the text, whichever piece holds it.
    if (!this.started && piece.length > 0) {
      this.started = true;
      if (piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
    }
    this.text = this.pos === 0 ? this.text + piece : this.text.slice(this.pos) + piece;
    this.pos = 0;
  }

  /** No more text will come: the last record may end without a line break. */
  end(): void {
    this.ended = true;
  }

  /** The next whole record; undefined when more text is needed (or, after `end`, when there is none left). */
  next(): CsvRecord | undefined {
    for (;;) {
      if (this.pos >= this.text.length) return undefined;
      const r = this.parse();
      if (r === undefined) {
        if (this.text.length - this.pos > csv_record_chars_max) throw this.malformed(this.line, `a record is longer than ${csv_record_chars_max} characters`);
        return undefined;
      }
      if (r !== null) return r;
    }
  }

  /** One record at `pos`: the record, null for a blank line, undefined when it may run past the text so far. */
  private parse(): CsvRecord | null | undefined {
    const s = this.text;
    const n = s.length;
    const unit = this.unit;
    const term = this.terminator;
    const start_line = this.line;
    const fields: (string | null)[] = [];
    let p = this.pos;
    let lines = 0;
    for (;;) {
      if (p < n && s.charCodeAt(p) === QUOTE) {
        // A quoted field: up to the quote that is not doubled nor escaped.
        let value = '';
        let from = p + 1;
        let q = from;
        for (;;) {
          while (q < n) {
            const c = s.charCodeAt(q);
            if (c === QUOTE || c === BACKSLASH) break;
            if (c === LF) lines++;
            q++;
          }
          if (q >= n || q + 1 >= n) {
            if (!this.ended) return undefined;
            if (q >= n || s.charCodeAt(q) === BACKSLASH) throw this.malformed(start_line, 'a quoted field is not closed before the end of the file');
          }
          const c = s.charCodeAt(q);
          const following = s.charCodeAt(q + 1);
          if (c === BACKSLASH) {
            // `\"` is a quote (Neo4j's legacy quote escaping); any other backslash is itself.
            if (following === QUOTE) {
              value += s.slice(from, q) + '"';
              q += 2;
              from = q;
            } else {
              q++;
            }
            continue;
          }
          if (following === QUOTE) {
            value += s.slice(from, q) + '"';
            q += 2;
            from = q;
            continue;
          }
          break;
        }
        fields.push(value + s.slice(from, q));
        p = q + 1;
        if (p < n && s.charCodeAt(p) === CR && (p + 1 >= n || s.charCodeAt(p + 1) === LF)) {
          if (p + 1 >= n && !this.ended) return undefined;
          p++;
        }
        // A terminator of two code units may be cut between two pieces.
        if (!this.ended && p < n && n - p < term.length && term.startsWith(s.slice(p))) return undefined;
        if (p < n && s.charCodeAt(p) !== LF && !this.isTerminator(s, p)) {
          throw this.malformed(start_line + lines, 'a quoted field is followed by text before the next field terminator');
        }
      } else {
        let q = p;
        if (unit >= 0) {
          while (q < n) {
            const c = s.charCodeAt(q);
            if (c === unit || c === LF) break;
            q++;
          }
        } else {
          while (q < n && s.charCodeAt(q) !== LF && !s.startsWith(term, q)) q++;
        }
        if (q >= n && !this.ended) return undefined;
        const end = q > p && s.charCodeAt(q - 1) === CR && (q >= n || s.charCodeAt(q) === LF) ? q - 1 : q;
        fields.push(end === p ? null : s.slice(p, end));
        p = q;
      }
      if (p >= n) {
        if (!this.ended) return undefined;
        break;
      }
      if (s.charCodeAt(p) === LF) {
        p++;
        lines++;
        break;
      }
      p += term.length; // a field terminator: another field follows
    }
    this.pos = p;
    this.line += lines;
    if (fields.length === 1 && fields[0] === null) return null;
    return { fields, line: start_line };
  }

  private isTerminator(s: string, p: number): boolean {
    return this.unit >= 0 ? s.charCodeAt(p) === this.unit : s.startsWith(this.terminator, p);
  }

  private malformed(line: number, reason: string): CypherError {
    return new CypherError('ExternalResourceFailed', 'runtime', 'MalformedCsv', `${this.source}:${line}: ${reason}`);
  }
}
