import { BaseErrorListener, Parser, type ATNSimulator, type RecognitionException, type Recognizer, type Token } from 'antlr4ng';
import { CypherLexer } from '../grammar/gen/CypherLexer.js';
import { syntaxError, type CypherError } from '../errors.js';

/**
 * Turns the first lexer or parser error into a CypherError and stops there: the default ANTLR
 * behaviour (print, recover, carry on) would report a cascade and build a half-broken tree.
 */
export class ThrowingErrorListener extends BaseErrorListener {
  override syntaxError<S extends Token, T extends ATNSimulator>(
    recognizer: Recognizer<T>,
    offending: S | null,
    line: number,
    column: number,
    msg: string,
    _e: RecognitionException | null,
  ): void {
    const previous = recognizer instanceof Parser && offending !== null && offending.tokenIndex > 0 ? recognizer.tokenStream.get(offending.tokenIndex - 1) : null;
    throw describeSyntaxError(offending, previous, line, column, msg);
  }
}

const number_tokens: ReadonlySet<number> = new Set([CypherLexer.DecimalInteger, CypherLexer.FloatLiteral]);

/**
 * A number run straight into letters or digits the lexer could not take (`12h34`, `1.5x`) is one
 * malformed number to the reader, not a number followed by a name.
 */
function isMalformedNumber(offending: Token, previous: Token | null): boolean {
  return (
    previous !== null &&
    number_tokens.has(previous.type) &&
    previous.stop + 1 === offending.start &&
    /^[A-Za-z0-9_]/.test(offending.text ?? '')
  );
}

function describeSyntaxError(offending: Token | null, previous: Token | null, line: number, column: number, msg: string): CypherError {
  const where = `(line ${line}, column ${column + 1})`;
  if (offending === null) {
    // Lexer errors carry no token; the message names the text that could not be tokenized.
    const text = /token recognition error at: '(.*)'$/s.exec(msg)?.[1] ?? '';
    const first = text[0];
    if (first === "'" || first === '"') return syntaxError('UnexpectedSyntax', `unterminated string literal ${where}`);
    if (first === '`') return syntaxError('UnexpectedSyntax', `unterminated escaped name ${where}`);
    if (text.startsWith('/*')) return syntaxError('UnexpectedSyntax', `unterminated comment ${where}`);
    // Outside strings, names in backticks and comments, Cypher is written in ASCII: a character
    // beyond it is often a look-alike from a word processor (an em dash for a minus, curly quotes).
    if (first !== undefined && first.charCodeAt(0) > 0x7f) {
      return syntaxError('InvalidUnicodeCharacter', `invalid character '${text.slice(0, 16)}' ${where}: only ASCII is allowed outside strings and names in backticks`);
    }
    return syntaxError('UnexpectedSyntax', `invalid character '${text.slice(0, 16)}' ${where}`);
  }
  if (offending.type === -1 && offending.tokenIndex === 0) return syntaxError('UnexpectedSyntax', `the query is empty ${where}`);
  if (isMalformedNumber(offending, previous)) {
    return syntaxError('InvalidNumberLiteral', `invalid number literal '${previous?.text ?? ''}${offending.text ?? ''}' ${where}`);
  }
  const found = offending.type === -1 ? 'end of input' : `'${offending.text ?? ''}'`;
  return syntaxError('UnexpectedSyntax', `invalid input ${found} ${where}: ${shortenExpected(msg)}`);
}

/** ANTLR lists every token it could accept; past a handful the list says nothing useful. */
const expected_tokens_shown_max = 8;

function shortenExpected(msg: string): string {
  return msg.replace(/expecting \{([^}]*)\}/, (whole, list: string) => {
    const items = list.split(', ');
    if (items.length <= expected_tokens_shown_max) return whole;
    return `expecting one of ${items.length} tokens, among them ${items.slice(0, expected_tokens_shown_max).join(', ')}`;
  });
}
