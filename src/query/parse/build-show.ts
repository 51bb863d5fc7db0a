import type { CallClause, Clause, ProjectionItem, ReturnClause, WithClause } from '../ast/clause.js';
import type { Expression } from '../ast/expression.js';
import type { Query } from '../ast/query.js';
import { show_commands, type ShowCommandColumns, type ShowKind } from '../ast/show-commands.js';
import type { Span } from '../ast/span.js';
import type {
  ChainedTransactionCommandContext,
  ClauseContext,
  ProjectionBodyContext,
  ShowCommandContext,
  ShowWordContext,
  TerminateCommandContext,
  TransactionIdsContext,
  WhereContext,
} from '../grammar/gen/CypherParser.js';
import type { ExpressionBuilder } from './build-expression.js';
import { stringValue } from './literals.js';
import type { ClauseBuilder } from './build-clause.js';
import type { Builder } from './builder.js';
import { symbolicName } from './builder.js';

/** The noun of each SHOW command, singular and plural. */
const nouns: ReadonlyMap<string, Exclude<ShowKind, 'terminate'>> = new Map([
  ['INDEX', 'indexes'],
  ['INDEXES', 'indexes'],
  ['CONSTRAINT', 'constraints'],
  ['CONSTRAINTS', 'constraints'],
  ['FUNCTION', 'functions'],
  ['FUNCTIONS', 'functions'],
  ['PROCEDURE', 'procedures'],
  ['PROCEDURES', 'procedures'],
  ['TRANSACTION', 'transactions'],
  ['TRANSACTIONS', 'transactions'],
]);

/** The words the manual allows before each noun, as the filter the procedure takes. */
const filters: Readonly<Record<Exclude<ShowKind, 'transactions' | 'terminate'>, ReadonlyMap<string, string>>> = {
  indexes: new Map([
    ['', 'ALL'],
    ['ALL', 'ALL'],
    ['RANGE', 'RANGE'],
    ['VECTOR', 'VECTOR'],
    ['FULLTEXT', 'FULLTEXT'],
    ['TEXT', 'TEXT'],
    ['POINT', 'POINT'],
    ['LOOKUP', 'LOOKUP'],
  ]),
  constraints: new Map([
    ['', 'ALL'],
    ['ALL', 'ALL'],
    ...['UNIQUE', 'UNIQUENESS', 'NODE UNIQUE', 'NODE UNIQUENESS', 'PROPERTY UNIQUENESS', 'NODE PROPERTY UNIQUENESS'].map((w) => [w, 'UNIQUE'] as const),
    ...['KEY', 'NODE KEY'].map((w) => [w, 'KEY'] as const),
    ...['EXIST', 'EXISTENCE', 'NODE EXIST', 'NODE EXISTENCE', 'PROPERTY EXIST', 'PROPERTY EXISTENCE', 'NODE PROPERTY EXIST', 'NODE PROPERTY EXISTENCE'].map((w) => [w, 'EXIST'] as const),
    ...['PROPERTY TYPE', 'NODE PROPERTY TYPE'].map((w) => [w, 'TYPE'] as const),
    // Weft has no relationship constraints: these list nothing.
    ...['RELATIONSHIP', 'REL'].flatMap((r) =>
      ['UNIQUE', 'UNIQUENESS', 'KEY', 'EXIST', 'EXISTENCE', 'PROPERTY EXIST', 'PROPERTY EXISTENCE', 'PROPERTY TYPE', 'PROPERTY UNIQUENESS'].map((w) => [`${r} ${w}`, 'NONE'] as const),
    ),
  ]),
  functions: new Map([
    ['', 'ALL'],
    ['ALL', 'ALL'],
    ['BUILT IN', 'BUILT IN'],
    ['USER DEFINED', 'USER DEFINED'],
  ]),
  procedures: new Map([['', 'ALL']]),
};

/**
 * `SHOW ... INDEXES | CONSTRAINTS | FUNCTIONS | PROCEDURES | TRANSACTIONS`, written as the query it means:
 * `CALL <procedure>(argument) YIELD <every column>`, then without YIELD `[WHERE ...] RETURN <default columns>`,
 * and with it `WITH <yielded columns> [ORDER BY] [SKIP] [LIMIT] [WHERE ...]` followed by the clauses written
 * after it, or by a RETURN of the yielded columns when there are none.
 */
export function showQuery(ctx: ShowCommandContext, b: Builder, clauses: ClauseBuilder, expressions: ExpressionBuilder): Query {
  const span = b.source.span(ctx);
  const words = ctx.showWord().map((w) => wordOf(w));
  const at = words.findIndex((w) => nouns.has(w));
  if (at < 0) throw b.source.error('UnexpectedSyntax', `SHOW ${words.join(' ')}: expected INDEXES, CONSTRAINTS, FUNCTIONS, PROCEDURES or TRANSACTIONS`, span);
  const noun = nouns.get(words[at]!)!;
  const ids = ctx.transactionIds();
  if (noun === 'transactions') {
    if (at > 0 || words.length > 1) throw b.source.error('UnexpectedSyntax', `SHOW ${words.join(' ')}: SHOW TRANSACTIONS takes ids as quoted strings, parameters or lists`, span);
    return commandQuery('transactions', idsArgument(ids, span, b, expressions), ctx, span, b, clauses, expressions);
  }
  if (ids !== null) throw b.source.error('UnexpectedSyntax', `SHOW ${noun.toUpperCase()} takes no ids`, b.source.span(ids));
  const filter = filters[noun].get(words.slice(0, at).join(' '));
  if (filter === undefined) throw b.source.error('UnexpectedSyntax', `SHOW ${words.slice(0, at + 1).join(' ')}: ${words.slice(0, at).join(' ')} is not a kind of ${noun}`, span);
  checkExecutable(words.slice(at + 1), noun, span, b);
  return commandQuery(noun, { kind: 'literal', value: filter, span }, ctx, span, b, clauses, expressions);
}

/** `TERMINATE TRANSACTION[S] id[, ...] [YIELD ...]`, written as SHOW TRANSACTIONS is. */
export function terminateQuery(ctx: TerminateCommandContext, b: Builder, clauses: ClauseBuilder, expressions: ExpressionBuilder): Query {
  const span = b.source.span(ctx);
  const word = wordOf(ctx.showWord());
  if (nouns.get(word) !== 'transactions') throw b.source.error('UnexpectedSyntax', `TERMINATE ${word}: expected TRANSACTION or TRANSACTIONS`, span);
  return commandQuery('terminate', idsArgument(ctx.transactionIds(), span, b, expressions), ctx, span, b, clauses, expressions);
}

const wordOf = (w: ShowWordContext): string => {
  const s = w.symbolicName();
  return (s !== null ? symbolicName(s) : w.getText()).toUpperCase();
};

/** The ids written, as one list the procedure flattens (each a STRING or a LIST<STRING>); null for none. */
function idsArgument(ids: TransactionIdsContext | null, span: Span, b: Builder, expressions: ExpressionBuilder): Expression {
  if (ids === null) return { kind: 'literal', value: null, span };
  const items = ids.transactionIdsItem().map((item): Expression => {
    const at = b.source.span(item);
    const text = item.StringLiteral();
    if (text !== null) return { kind: 'literal', value: stringValue(text.getText(), at, b.source.error.bind(b.source)), span: at };
    const parameter = item.parameter();
    if (parameter !== null) return expressions.parameter(parameter);
    return { kind: 'list', items: item.listLiteral()!.expression().map((e) => b.expression(e)), span: at };
  });
  return { kind: 'list', items, span: b.source.span(ids) };
}

/** What SHOW and TERMINATE share after their words: WHERE, or YIELD with what follows it. */
interface CommandTail {
  YIELD(): unknown;
  where(): WhereContext | null;
  projectionBody(): ProjectionBodyContext | null;
  clause(): ClauseContext[];
  chainedTransactionCommand(): ChainedTransactionCommandContext | null;
}

function commandQuery(kind: ShowKind, argument: Expression, ctx: CommandTail, span: Span, b: Builder, clauses: ClauseBuilder, expressions: ExpressionBuilder): Query {
  return single(commandClauses(kind, argument, ctx, span, b, clauses, expressions), span);
}

/** One command's clauses: its CALL, then its YIELD as a WITH and what follows it (or a RETURN). */
function commandClauses(
  kind: ShowKind,
  argument: Expression,
  ctx: CommandTail,
  span: Span,
  b: Builder,
  clauses: ClauseBuilder,
  expressions: ExpressionBuilder,
  /** Columns the commands before this one yielded, which stay in scope (a chained command). */
  carried: readonly string[] = [],
): Clause[] {
  const command = show_commands[kind];
  const name = (n: string, s: Span): Expression => ({ kind: 'variable', name: n, span: s });
  const item = (n: string, s: Span): ProjectionItem => ({ expression: name(n, s), text: n, span: s });
  const where = ctx.where();
  const condition = where === null ? undefined : b.expression(where.expression());
  const call: CallClause = {
    kind: 'call',
    optional: false,
    procedure: command.procedure,
    args: [argument],
    yield: yieldedColumns(command, ctx, carried).map((c) => ({ field: c, variable: c, span })),
    ...(ctx.YIELD() === null && condition !== undefined && { where: condition }),
    span,
  };
  const returning = (names: readonly string[]): ReturnClause => ({
    kind: 'return',
    projection: { distinct: false, star: false, items: names.map((n) => item(n, span)), order: [], span },
    span,
  });
  const body = ctx.projectionBody();
  if (body === null) return [call, returning(command.defaults)];
  const written = clauses.projection(body);
  if (written.distinct) throw b.source.error('UnexpectedSyntax', 'SHOW ... YIELD takes column names, not DISTINCT', written.span);
  for (const it of written.items) {
    if (it.expression.kind !== 'variable') throw b.source.error('UnexpectedSyntax', `SHOW ... YIELD takes column names, not \`${it.text}\``, it.span);
  }
  const own = written.star ? command.columns : written.items.map((it) => it.alias ?? (it.expression.kind === 'variable' ? it.expression.name : it.text));
  const yielded = [...carried, ...own];
  const projection = carried.length === 0 ? written : { ...written, star: false, items: [...carried.map((n) => item(n, span)), ...(written.star ? command.columns.map((n) => item(n, span)) : written.items)] };
  const narrow: WithClause = { kind: 'with', projection, ...(condition !== undefined && { where: condition }), span };
  const after = ctx.clause().flatMap((c) => clauses.clauses(c));
  const chained = ctx.chainedTransactionCommand();
  const transactional = kind === 'transactions' || kind === 'terminate';
  // The transaction commands are not combined with other clauses (the manual): YIELD ... WHERE ... RETURN
  // only, or another transaction command reading the columns yielded.
  if (transactional && (after.length > 1 || (after.length === 1 && (after[0]!.kind !== 'return' || chained !== null)))) {
    const verb = kind === 'terminate' ? 'TERMINATE TRANSACTIONS' : 'SHOW TRANSACTIONS';
    throw b.source.error('UnexpectedSyntax', `${verb} is not combined with other clauses: after YIELD only WHERE, one RETURN or another transaction command may follow`, span);
  }
  if (chained !== null) {
    const at = b.source.span(chained);
    if (!transactional) throw b.source.error('UnexpectedSyntax', 'only a transaction command follows another transaction command', at);
    return [call, narrow, ...chainedClauses(chained, at, b, clauses, expressions, yielded)];
  }
  return [call, narrow, ...(after.length > 0 ? after : [returning(yielded)])];
}

/**
 * The columns a command's CALL yields: all of them for the first command; after another command only those
 * its YIELD names (its default ones without YIELD), so its other columns cannot clash with the names
 * carried from before (`SHOW ... YIELD transactionId TERMINATE TRANSACTIONS transactionId YIELD message`).
 */
function yieldedColumns(command: ShowCommandColumns, ctx: CommandTail, carried: readonly string[]): readonly string[] {
  if (carried.length === 0) return command.columns;
  const body = ctx.projectionBody();
  if (body === null) return command.defaults;
  if (body.projectionItems().STAR() !== null) return command.columns;
  const named = new Set(body.projectionItems().projectionItem().map((it) => it.expression().getText()));
  return command.columns.filter((c) => named.has(c));
}

/** A SHOW or TERMINATE TRANSACTIONS after another's YIELD: its ids are expressions over the rows so far. */
function chainedClauses(ctx: ChainedTransactionCommandContext, span: Span, b: Builder, clauses: ClauseBuilder, expressions: ExpressionBuilder, carried: readonly string[]): Clause[] {
  const terminate = ctx.TERMINATE() !== null;
  const word = wordOf(ctx.showWord());
  if (nouns.get(word) !== 'transactions') throw b.source.error('UnexpectedSyntax', `${terminate ? 'TERMINATE' : 'SHOW'} ${word}: expected TRANSACTION or TRANSACTIONS`, span);
  const ids = ctx.expression().map((e) => b.expression(e));
  if (terminate && ids.length === 0) throw b.source.error('UnexpectedSyntax', 'TERMINATE TRANSACTIONS needs the ids of the transactions to end', span);
  const argument: Expression = ids.length === 0 ? { kind: 'literal', value: null, span } : { kind: 'list', items: ids, span };
  return commandClauses(terminate ? 'terminate' : 'transactions', argument, ctx, span, b, clauses, expressions, carried);
}

function single(clauses: readonly Clause[], span: Span): Query {
  return { kind: 'query', parts: [{ clauses, span }], union_all: false, span };
}

/** `EXECUTABLE [BY CURRENT USER | BY name]` after FUNCTIONS or PROCEDURES: Weft has no users, so every one is executable. */
function checkExecutable(rest: readonly string[], noun: ShowKind, span: Span, b: Builder): void {
  if (rest.length === 0) return;
  const ok =
    (noun === 'functions' || noun === 'procedures') &&
    rest[0] === 'EXECUTABLE' &&
    (rest.length === 1 || (rest[1] === 'BY' && (rest.length === 3 || (rest.length === 4 && rest[2] === 'CURRENT' && rest[3] === 'USER'))));
  if (!ok) throw b.source.error('UnexpectedSyntax', `SHOW ${noun.toUpperCase()}: unexpected ${rest.join(' ')}`, span);
}
