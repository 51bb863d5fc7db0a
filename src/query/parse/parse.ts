import {
  BailErrorStrategy,
  CharStream,
  CommonTokenStream,
  DefaultErrorStrategy,
  ParseCancellationException,
  PredictionMode,
  Token,
} from 'antlr4ng';
import type { Expression } from '../ast/expression.js';
import type { Pattern, PatternPath } from '../ast/pattern.js';
import type { Query } from '../ast/query.js';
import type { Hint, Statement } from '../ast/statement.js';
import { CypherLexer } from '../grammar/gen/CypherLexer.js';
import {
  CypherParser,
  type ExpressionContext,
  type PatternContext,
  type PatternPartContext,
  type QueryContext,
  type RelationshipsPatternContext,
  type ScriptContext,
} from '../grammar/gen/CypherParser.js';
import { syntaxError } from '../errors.js';
import type { Builder, StatementOptions } from './builder.js';
import { ClauseBuilder } from './build-clause.js';
import { ExpressionBuilder } from './build-expression.js';
import { PatternBuilder } from './build-pattern.js';
import { StatementBuilder } from './build-statement.js';
import { SourceText } from './source-text.js';
import { ThrowingErrorListener } from './syntax-errors.js';

/**
 * How deeply brackets, braces, parentheses and CASE may nest. The generated parser recurses about
 * fifteen frames per level, and every later stage recurses over the tree, so the bound keeps all
 * of them far from the stack limit whatever the input.
 */
export const nesting_depth_max = 100;

/** The token channel the grammar sends hint comments to. */
const hint_channel = 2;

/** Parses one statement. Any malformed input gives a CypherError (SyntaxError, compile time); nothing else is thrown. */
export function parse(text: string): Statement {
  try {
    return parseChecked(text);
  } catch (e) {
    // The nesting bounds keep every known input far from the stack limit; should some shape still
    // exhaust it, the query is refused as too complex rather than failing with an internal error.
    if (e instanceof RangeError) throw syntaxError('UnexpectedSyntax', 'the query is too complex to parse (line 1, column 1)');
    throw e;
  }
}

function parseChecked(text: string): Statement {
  const source = new SourceText(text);
  const tokens = tokenize(text);
  checkTokens(tokens, source);
  const tree = runParser(tokens, (p) => p.script());
  const options: StatementOptions = { as_of: undefined, hints: [] };
  const statement = buildStatement(source, tree, options);
  const comment_hints = hintComments(text, tokens, source, options);
  if (comment_hints.length === 0) return statement;
  if (statement.kind !== 'query') {
    throw source.error('UnexpectedSyntax', 'hints apply to queries only', comment_hints[0]!.span);
  }
  return { ...statement, hints: [...statement.hints, ...comment_hints] };
}

function tokenize(text: string): CommonTokenStream {
  const lexer = new CypherLexer(CharStream.fromString(text));
  lexer.removeErrorListeners();
  lexer.addErrorListener(new ThrowingErrorListener());
  const tokens = new CommonTokenStream(lexer);
  tokens.fill();
  return tokens;
}

/**
 * Checks made on the token stream before parsing: the nesting bound, and a '/' directly followed by
 * '*', which can only be a comment that never ends (a closed one is skipped by the lexer).
 */
function checkTokens(tokens: CommonTokenStream, source: SourceText): void {
  let depth = 0;
  let previous: Token | undefined;
  for (const token of tokens.getTokens()) {
    if (token.channel !== Token.DEFAULT_CHANNEL) continue;
    if (previous?.type === CypherLexer.SLASH && token.type === CypherLexer.STAR && token.start === previous.stop + 1) {
      throw source.error('UnexpectedSyntax', 'unterminated comment', source.tokenSpan(previous));
    }
    previous = token;
    switch (token.type) {
      case CypherLexer.LPAREN:
      case CypherLexer.LBRACK:
      case CypherLexer.LBRACE:
      case CypherLexer.CASE:
        depth += 1;
        if (depth > nesting_depth_max) {
          throw source.error('UnexpectedSyntax', `the query nests deeper than ${nesting_depth_max} levels`, source.tokenSpan(token));
        }
        break;
      case CypherLexer.RPAREN:
      case CypherLexer.RBRACK:
      case CypherLexer.RBRACE:
      case CypherLexer.END:
        depth = Math.max(0, depth - 1);
        break;
      default:
        break;
    }
  }
}

/**
 * Two-stage parsing: the fast SLL mode succeeds on nearly every query; only when it fails is the
 * input parsed again in full LL mode, which is exact and reports the error.
 */
function runParser<T>(tokens: CommonTokenStream, rule: (p: CypherParser) => T): T {
  const parser = new CypherParser(tokens);
  parser.removeErrorListeners();
  parser.errorHandler = new BailErrorStrategy();
  parser.interpreter.predictionMode = PredictionMode.SLL;
  try {
    return rule(parser);
  } catch (e) {
    if (!(e instanceof ParseCancellationException)) throw e;
  }
  tokens.seek(0);
  parser.reset();
  parser.errorHandler = new DefaultErrorStrategy();
  parser.addErrorListener(new ThrowingErrorListener());
  parser.interpreter.predictionMode = PredictionMode.LL;
  return rule(parser);
}

function makeBuilder(source: SourceText, options: StatementOptions | undefined): { b: Builder; statements: StatementBuilder } {
  let expressions: ExpressionBuilder | undefined;
  let patterns: PatternBuilder | undefined;
  let statements: StatementBuilder | undefined;
  const b: Builder = {
    source,
    options,
    expression: (ctx: ExpressionContext): Expression => expressions!.expression(ctx),
    pattern: (ctx: PatternContext): Pattern => patterns!.pattern(ctx),
    matchPattern: (ctx: PatternContext) => patterns!.matchPattern(ctx),
    matchPath: (ctx: RelationshipsPatternContext) => patterns!.matchPath(ctx),
    path: (ctx: PatternPartContext | RelationshipsPatternContext): PatternPath => patterns!.path(ctx),
    // A subquery gets a builder without statement options: AS OF and hints there are refused.
    nestedQuery: (ctx: QueryContext): Query => makeBuilder(source, undefined).statements.query(ctx, true),
    callQuery: (ctx: QueryContext): Query => makeBuilder(source, undefined).statements.query(ctx, false),
  };
  expressions = new ExpressionBuilder(b);
  patterns = new PatternBuilder(b, expressions);
  const clauses = new ClauseBuilder(b, expressions, (ctx) => {
    const match = ctx.matchClause();
    if (match !== null) statements!.options(match.queryOption());
  });
  statements = new StatementBuilder(b, expressions, clauses);
  return { b, statements };
}

function buildStatement(source: SourceText, tree: ScriptContext, options: StatementOptions): Statement {
  return makeBuilder(source, options).statements.statement(tree.statement());
}

/**
 * Hints written as comments, `/*+ vector_consistency('exact') *\/`. Each comment body is parsed with
 * the grammar's hint rule from a copy of the text in which everything outside the body is blanked
 * (one space per code point, newlines kept), so positions in errors match the original text.
 */
function hintComments(text: string, tokens: CommonTokenStream, source: SourceText, options: StatementOptions): Hint[] {
  const hints: Hint[] = [];
  const points = Array.from(text);
  for (const token of tokens.getTokens()) {
    if (token.channel !== hint_channel) continue;
    const body_start = token.start + 3;
    const body_end = token.stop - 1; // exclusive: the closing '*/' starts here
    const masked = points.map((p, i) => (i >= body_start && i < body_end ? p : p === '\n' ? '\n' : ' ')).join('');
    const tree = runParser(tokenize(masked), (p) => p.hintCommentBody());
    const { statements } = makeBuilder(source, options);
    for (const call of tree.hintCall()) hints.push(statements.hintCall(call));
  }
  return hints;
}
