import type { ParserRuleContext, Token } from 'antlr4ng';
import type { Span } from '../ast/span.js';
import { syntaxError, type CypherError } from '../errors.js';

/**
 * The query text and the mapping from the lexer's positions (code points) to spans (UTF-16 offsets).
 * Without surrogate pairs the two coincide and no table is built.
 */
export class SourceText {
  /** utf16_offset[i] is the UTF-16 offset of code point i; absent when the text has no surrogate pairs. */
  private readonly utf16_offset: Int32Array | undefined;

  constructor(readonly text: string) {
    if (!/[\uD800-\uDFFF]/.test(text)) {
      this.utf16_offset = undefined;
      return;
    }
    const points = Array.from(text);
    const table = new Int32Array(points.length + 1);
    let offset = 0;
    points.forEach((p, i) => {
      table[i] = offset;
      offset += p.length;
    });
    table[points.length] = offset;
    this.utf16_offset = table;
  }

  private offset(code_point: number): number {
    if (this.utf16_offset === undefined) return code_point;
    return this.utf16_offset[Math.min(code_point, this.utf16_offset.length - 1)] ?? this.text.length;
  }

  /** The span of a token range, from the first token's start to the last token's end. */
  spanOfTokens(first: Token, last: Token): Span {
    const start = this.offset(first.start);
    const end = Math.max(start, this.offset(last.stop + 1));
    return { start, end, line: first.line, column: first.column + 1 };
  }

  span(ctx: ParserRuleContext): Span {
    const first = ctx.start;
    const last = ctx.stop ?? ctx.start;
    if (first === null || last === null) return { start: 0, end: 0, line: 1, column: 1 };
    return this.spanOfTokens(first, last);
  }

  tokenSpan(token: Token): Span {
    return this.spanOfTokens(token, token);
  }

  slice(span: Span): string {
    return this.text.slice(span.start, span.end);
  }

  /** A compile-time SyntaxError located at a span. */
  error(detail: string, message: string, span: Span): CypherError {
    return syntaxError(detail, `${message} (line ${span.line}, column ${span.column})`);
  }
}
