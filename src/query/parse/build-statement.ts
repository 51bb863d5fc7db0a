import type { Clause } from '../ast/clause.js';
import { isUpdatingClause } from '../ast/clause.js';
import type { Query, SingleQuery } from '../ast/query.js';
import type {
  ConstraintRequirement,
  CreateConstraintStatement,
  CreateIndexStatement,
  Hint,
  PropertyRef,
  SchemaStatement,
  Statement,
  TypeRef,
} from '../ast/statement.js';
import type { Span } from '../ast/span.js';
import { assert } from '../../common/assert.js';
import {
  IndexForPatternContext,
  IndexOnLabelContext,
  NodeKeyRequirementContext,
  NotNullRequirementContext,
  TypeRequirementContext,
  UniqueRequirementContext,
  type CreateConstraintContext,
  type CreateIndexContext,
  type CreateSearchIndexContext,
  type ExpressionContext,
  type FunctionNameContext,
  type NodeLabelContext,
  type HintCallContext,
  type PropertyReferenceContext,
  type QueryContext,
  type QueryOptionContext,
  type SchemaCommandContext,
  type SessionCommandContext,
  type SingleQueryContext,
  type StatementContext,
  type TypeNameContext,
} from '../grammar/gen/CypherParser.js';
import { schemaName, symbolicName, variableName, type Builder } from './builder.js';
import { showQuery, terminateQuery } from './build-show.js';
import type { ClauseBuilder } from './build-clause.js';
import type { ExpressionBuilder } from './build-expression.js';

export class StatementBuilder {
  constructor(
    private readonly b: Builder,
    private readonly expressions: ExpressionBuilder,
    private readonly clauses: ClauseBuilder,
  ) {}

  statement(ctx: StatementContext): Statement {
    const session = ctx.sessionCommand();
    if (session !== null) return this.session(session);
    const schema = ctx.schemaCommand();
    if (schema !== null) return this.schema(schema);
    const options = this.b.options;
    assert(options !== undefined, 'a top-level statement has options');
    const show = ctx.showCommand();
    const terminate = ctx.terminateCommand();
    let built: Query;
    if (show !== null) {
      built = showQuery(show, this.b, this.clauses, this.expressions);
      checkComposition(built, false, this.b);
    } else if (terminate !== null) {
      built = terminateQuery(terminate, this.b, this.clauses, this.expressions);
      checkComposition(built, false, this.b);
    } else {
      built = this.query(ctx.query()!, false);
    }
    return {
      kind: 'query',
      query: built,
      ...(options.as_of && { as_of: options.as_of }),
      hints: options.hints,
      span: this.b.source.span(ctx),
    };
  }

  /** Options (AS OF TIMESTAMP, USING hints) written before or after the query, or after a MATCH pattern. */
  options(list: readonly QueryOptionContext[]): void {
    for (const option of list) {
      const span = this.b.source.span(option);
      const options = this.b.options;
      if (options === undefined) {
        throw this.b.source.error('UnexpectedSyntax', 'AS OF TIMESTAMP and hints apply to a whole statement, not to a subquery', span);
      }
      const asOf = option.asOfTimestamp();
      if (asOf !== null) {
        if (options.as_of !== undefined) {
          throw this.b.source.error('UnexpectedSyntax', 'a statement reads at one timestamp; AS OF TIMESTAMP is given twice', span);
        }
        options.as_of = this.b.expression(asOf.expression());
        continue;
      }
      const hint = option.queryHint()!;
      options.hints.push(this.hint(hint.functionName(), hint.expression(), span));
    }
  }

  hintCall(ctx: HintCallContext): Hint {
    return this.hint(ctx.functionName(), ctx.expression(), this.b.source.span(ctx));
  }

  private hint(name: FunctionNameContext, args: readonly ExpressionContext[], span: Span): Hint {
    const full = [...name.namespace().symbolicName(), name.symbolicName()].map(symbolicName).join('.');
    return { name: full, args: args.map((a) => this.b.expression(a)), span };
  }

  query(ctx: QueryContext, nested: boolean): Query {
    this.options(ctx.queryOption());
    const parts = [this.singleQuery(ctx.singleQuery())];
    let union_all: boolean | undefined;
    for (const union of ctx.unionPart()) {
      const all = union.ALL() !== null;
      if (union_all !== undefined && union_all !== all) {
        throw this.b.source.error(
          'InvalidClauseComposition',
          'UNION and UNION ALL cannot be mixed in one query',
          this.b.source.span(union),
        );
      }
      union_all = all;
      parts.push(this.singleQuery(union.singleQuery()));
    }
    const query: Query = { kind: 'query', parts, union_all: union_all ?? false, span: this.b.source.span(ctx) };
    checkComposition(query, nested, this.b);
    return query;
  }

  private singleQuery(ctx: SingleQueryContext): SingleQuery {
    return { clauses: ctx.clause().flatMap((c) => this.clauses.clauses(c)), span: this.b.source.span(ctx) };
  }

  private session(ctx: SessionCommandContext): Statement {
    const span = this.b.source.span(ctx);
    const value = this.expressions.sessionValue(ctx.sessionValue());
    return { kind: 'session_set', name: symbolicName(ctx.symbolicName()), value, span };
  }

  private schema(ctx: SchemaCommandContext): SchemaStatement {
    const span = this.b.source.span(ctx);
    const cc = ctx.createConstraint();
    if (cc !== null) return this.createConstraint(cc, span);
    const dc = ctx.dropConstraint();
    if (dc !== null) {
      return { kind: 'drop_constraint', name: symbolicName(dc.symbolicName()), if_exists: dc.ifExists() !== null, span };
    }
    const ci = ctx.createIndex();
    if (ci !== null) return this.createIndex(ci, span);
    const si = ctx.createSearchIndex();
    if (si !== null) return this.createSearchIndex(si, span);
    const di = ctx.dropIndex()!;
    return { kind: 'drop_index', name: symbolicName(di.symbolicName()), if_exists: di.ifExists() !== null, span };
  }

  /** A schema object names its label; `:$(expr)` has no meaning there. */
  private schemaLabel(ctx: NodeLabelContext): string {
    const name = ctx.labelName();
    if (name === null) throw this.b.source.error('UnexpectedSyntax', 'a constraint or index names its label; a dynamic label is not allowed here', this.b.source.span(ctx));
    return schemaName(name.schemaName());
  }

  private propertyRef(ctx: PropertyReferenceContext): PropertyRef {
    return {
      variable: variableName(ctx.variable()),
      key: schemaName(ctx.propertyKeyName().schemaName()),
      span: this.b.source.span(ctx),
    };
  }

  private createConstraint(ctx: CreateConstraintContext, span: Span): CreateConstraintStatement {
    const req = ctx.constraintRequirement();
    const refCtxs =
      req instanceof UniqueRequirementContext || req instanceof NodeKeyRequirementContext
        ? (req.propertyReferenceList()?.propertyReference() ?? [req.propertyReference()!])
        : [(req as NotNullRequirementContext | TypeRequirementContext).propertyReference()];
    const property_refs = refCtxs.map((r) => this.propertyRef(r));
    const properties = property_refs.map((r) => r.key);
    let requirement: ConstraintRequirement;
    if (req instanceof UniqueRequirementContext) requirement = { kind: 'unique', properties };
    else if (req instanceof NodeKeyRequirementContext) requirement = { kind: 'node_key', properties };
    else if (req instanceof NotNullRequirementContext) requirement = { kind: 'not_null', properties };
    else {
      assert(req instanceof TypeRequirementContext, 'unknown constraint requirement');
      requirement = { kind: 'property_type', properties, type: this.typeRef(req.typeName()) };
    }
    const name = ctx.symbolicName();
    const where = ctx.where();
    return {
      kind: 'create_constraint',
      ...(name !== null && { name: symbolicName(name) }),
      if_not_exists: ctx.ifNotExists() !== null,
      variable: variableName(ctx.variable()),
      label: this.schemaLabel(ctx.nodeLabel()),
      requirement,
      property_refs,
      ...(where !== null && { where: this.b.expression(where.expression()) }),
      span,
    };
  }

  private typeRef(ctx: TypeNameContext): TypeRef {
    const element = ctx.typeName();
    const size = ctx.DecimalInteger();
    return {
      name: symbolicName(ctx.symbolicName()),
      ...(element !== null && { element: this.typeRef(element) }),
      ...(size !== null && { size: Number(size.getText()) }),
      span: this.b.source.span(ctx),
    };
  }

  /** The kind, EACH and OPTIONS are words the grammar leaves unreserved; they are checked here. */
  private createSearchIndex(ctx: CreateSearchIndexContext, span: Span): CreateIndexStatement {
    const kindWord = symbolicName(ctx._searchKind!).toUpperCase();
    if (kindWord === 'POINT') {
      // Points are stored and filtered (point.distance, point.withinBBox) without one; a plain index on a
      // point property answers equality.
      throw this.b.source.error('UnexpectedSyntax', 'CREATE POINT INDEX: Weft has no point index; CREATE INDEX on the property answers equality, and point.distance() and point.withinBBox() filter without an index', span);
    }
    if (kindWord !== 'VECTOR' && kindWord !== 'FULLTEXT') {
      throw this.b.source.error('UnexpectedSyntax', `CREATE ${kindWord} INDEX: the index kinds are VECTOR and FULLTEXT`, span);
    }
    const each = ctx._each;
    if (each !== undefined && symbolicName(each).toUpperCase() !== 'EACH') {
      throw this.b.source.error('UnexpectedSyntax', `expected EACH or a property list after ON, got ${symbolicName(each)}`, span);
    }
    const options = ctx.indexOptions();
    if (options !== null && symbolicName(options.symbolicName()).toUpperCase() !== 'OPTIONS') {
      throw this.b.source.error('UnexpectedSyntax', `expected OPTIONS {...}, got ${symbolicName(options.symbolicName())}`, span);
    }
    const property_refs = ctx.searchIndexProperties().propertyReference().map((r) => this.propertyRef(r));
    const name = ctx._indexName;
    return {
      kind: 'create_index',
      ...(name !== undefined && { name: symbolicName(name) }),
      unique: false,
      if_not_exists: ctx.ifNotExists() !== null,
      variable: variableName(ctx.variable()),
      label: this.schemaLabel(ctx.nodeLabel()),
      properties: property_refs.map((r) => r.key),
      property_refs,
      search: {
        kind: kindWord === 'VECTOR' ? 'vector' : 'fulltext',
        ...(options !== null && { options: this.expressions.map(options.mapLiteral()) }),
        span,
      },
      span,
    };
  }

  private createIndex(ctx: CreateIndexContext, span: Span): CreateIndexStatement {
    const target = ctx.indexTarget();
    const name = ctx.symbolicName();
    const where = ctx.where();
    const common = {
      kind: 'create_index' as const,
      ...(name !== null && { name: symbolicName(name) }),
      unique: ctx.UNIQUE() !== null,
      if_not_exists: ctx.ifNotExists() !== null,
      ...(where !== null && { where: this.b.expression(where.expression()) }),
      span,
    };
    if (target instanceof IndexForPatternContext) {
      const property_refs = target.propertyReference().map((r) => this.propertyRef(r));
      return {
        ...common,
        variable: variableName(target.variable()),
        label: this.schemaLabel(target.nodeLabel()),
        properties: property_refs.map((r) => r.key),
        property_refs,
      };
    }
    assert(target instanceof IndexOnLabelContext, 'unknown index target');
    return {
      ...common,
      label: schemaName(target.labelName().schemaName()),
      properties: target.propertyKeyName().map((k) => schemaName(k.schemaName())),
      property_refs: [],
    };
  }
}

/**
 * The clause order openCypher requires: RETURN only last; a query ends with RETURN, an update or a
 * procedure call; every part of a UNION returns. A subquery (EXISTS { ... }) need not return.
 */
function checkComposition(query: Query, nested: boolean, b: Builder): void {
  for (const part of query.parts) {
    const clauses = part.clauses;
    clauses.forEach((clause, i) => {
      if (clause.kind === 'return' && i !== clauses.length - 1) {
        throw b.source.error('InvalidClauseComposition', 'RETURN can only be used at the end of a query', clause.span);
      }
      if (clause.kind === 'finish' && i !== clauses.length - 1) {
        throw b.source.error('InvalidClauseComposition', 'FINISH can only be used at the end of a query', clause.span);
      }
    });
    const last = clauses[clauses.length - 1]!;
    if (nested) continue;
    if (query.parts.length > 1 && last.kind !== 'return') {
      throw b.source.error('InvalidClauseComposition', 'every part of a UNION must end with RETURN', last.span);
    }
    if (!concludes(last)) {
      throw b.source.error(
        'InvalidClauseComposition',
        `a query cannot conclude with ${clauseName(last)} (it must end with RETURN, an update or a procedure call)`,
        last.span,
      );
    }
    for (const clause of clauses) {
      if (clause.kind === 'call' && clause.yield === 'star' && clauses.length > 1) {
        throw b.source.error('UnexpectedSyntax', 'YIELD * is only allowed in a standalone procedure call', clause.span);
      }
    }
  }
}

function concludes(clause: Clause): boolean {
  if (clause.kind === 'call_subquery') return isUnitSubquery(clause.query);
  return clause.kind === 'return' || clause.kind === 'call' || clause.kind === 'finish' || isUpdatingClause(clause);
}

/** A CALL subquery without RETURN: it is called for its updates and passes each row on once. */
export function isUnitSubquery(query: Query): boolean {
  return query.parts.every((p) => p.clauses[p.clauses.length - 1]?.kind !== 'return');
}

function clauseName(clause: Clause): string {
  switch (clause.kind) {
    case 'match':
      return 'MATCH';
    case 'unwind':
      return 'UNWIND';
    case 'load_csv':
      return 'LOAD CSV';
    case 'with':
      return 'WITH';
    case 'call_subquery':
      return 'CALL { ... } that returns rows';
    default:
      return clause.kind.toUpperCase();
  }
}
