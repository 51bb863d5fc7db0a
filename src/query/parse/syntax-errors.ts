import { BaseErrorListener, type ATNSimulator, type RecognitionException, type Recognizer, type Token } from 'antlr4ng';
import { syntaxError, type CypherError } from '../errors.js';

/**
 * Turns the first lexer or parser error into a CypherError and stops there: the default ANTLR
 * behaviour (print, recover, carry on) would report a cascade and build a half-broken tree.
 */
export class ThrowingErrorListener extends BaseErrorListener {
  override syntaxError<S extends Token, T extends ATNSimulator>(
    _recognizer: Recognizer<T>,
    offending: S | null,
    line: number,
    column: number,
    msg: string,
    _e: RecognitionException | null,
  ): void {
    throw describeSyntaxError(offending, line, column, msg);
  }
}

function describeSyntaxError(offending: Token | null, line: number, column: number, msg: string): CypherError {
  const where = `(line ${line}, column ${column + 1})`;
  if (offending === null) {
    // Lexer errors carry no token; the message names the text that could not be tokenized.
    const text = /token recognition error at: '(.*)'$/s.exec(msg)?.[1] ?? '';
    const first = text[0];
    if (first === "'" || first === '"') return syntaxError('UnexpectedSyntax', `unterminated string literal ${where}`);
    if (first === '`') return syntaxError('UnexpectedSyntax', `unterminated escaped name ${where}`);
    if (text.startsWith('/*')) return syntaxError('UnexpectedSyntax', `unterminated comment ${where}`);
    return syntaxError('UnexpectedSyntax', `invalid character '${text.slice(0, 16)}' ${where}`);
  }
  if (offending.type === -1 && offending.tokenIndex === 0) return syntaxError('UnexpectedSyntax', `the query is empty ${where}`);
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
