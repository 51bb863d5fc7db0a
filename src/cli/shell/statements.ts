/**
 * Splits shell input into Cypher statements ended by `;`. A `;` inside a string literal, a
 * backquoted name or a comment does not end a statement, so input may span lines freely. The splitter
 * keeps its state between calls: the interactive shell feeds it one line at a time.
 */
type Mode = 'code' | 'single' | 'double' | 'backtick' | 'line_comment' | 'block_comment';

export class StatementSplitter {
  private buffer = '';
  private mode: Mode = 'code';

  /** Adds text (a line, with its newline) and returns the statements it completed, without their `;`. */
  push(text: string): string[] {
    const done: string[] = [];
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      const next = text[i + 1];
      switch (this.mode) {
        case 'code':
          if (c === ';') {
            const statement = this.buffer.trim();
            if (statement !== '') done.push(statement);
            this.buffer = '';
            continue;
          }
          if (c === "'") this.mode = 'single';
          else if (c === '"') this.mode = 'double';
          else if (c === '`') this.mode = 'backtick';
          else if (c === '/' && next === '/') this.mode = 'line_comment';
          else if (c === '/' && next === '*') this.mode = 'block_comment';
          break;
        case 'single':
        case 'double':
          if (c === '\\' && next !== undefined) {
            this.buffer += c + next;
            i++;
            continue;
          }
          if ((c === "'" && this.mode === 'single') || (c === '"' && this.mode === 'double')) this.mode = 'code';
          break;
        case 'backtick':
          if (c === '`') this.mode = 'code';
          break;
        case 'line_comment':
          if (c === '\n') this.mode = 'code';
          break;
        case 'block_comment':
          if (c === '*' && next === '/') {
            this.buffer += '*/';
            i++;
            this.mode = 'code';
            continue;
          }
          break;
      }
      this.buffer += c;
    }
    return done;
  }

  /** True when nothing but blanks waits for a `;`. */
  get empty(): boolean {
    return this.buffer.trim() === '';
  }

  /** What is left without a closing `;` (the last statement of a file or of `-c`), and resets. */
  rest(): string | undefined {
    const statement = this.buffer.trim();
    this.buffer = '';
    this.mode = 'code';
    return statement === '' ? undefined : statement;
  }
}

/** Every statement of a whole text; a last statement without `;` counts. */
export function splitStatements(text: string): string[] {
  const splitter = new StatementSplitter();
  const out = splitter.push(text);
  const rest = splitter.rest();
  if (rest !== undefined) out.push(rest);
  return out;
}
