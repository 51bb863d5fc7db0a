/**
 * Turns lines of shell input into the inputs a session runs: a line starting with `:` outside a
 * statement is a command; everything else is Cypher, gathered until `;`. The same reader serves the
 * interactive prompt, `-f file` and `-c text`, so they accept the same language.
 */
import { StatementSplitter } from './statements.js';

export class InputReader {
  private readonly splitter = new StatementSplitter();

  /** One line (without its newline); returns what it completed. */
  line(line: string): string[] {
    if (this.splitter.empty && line.trim().startsWith(':')) {
      this.splitter.rest();
      return [line.trim()];
    }
    return this.splitter.push(line + '\n');
  }

  /** True while a statement waits for its `;`. */
  get pending(): boolean {
    return !this.splitter.empty;
  }

  /** At the end of a file or of `-c`: a last statement without `;` still runs. */
  end(): string[] {
    const rest = this.splitter.rest();
    return rest === undefined ? [] : [rest];
  }

  /** Drops a half-typed statement (Ctrl-C at the prompt). */
  discard(): void {
    this.splitter.rest();
  }
}

/** Every input of a whole text. */
export function inputsOf(text: string): string[] {
  const reader = new InputReader();
  const out = text.split(/\r?\n/).flatMap((l) => reader.line(l));
  return [...out, ...reader.end()];
}
