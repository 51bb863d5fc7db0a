import type { BinaryOperator, LiteralValue, QuantifierKind, SubqueryMeasure, UnaryOperator } from '../ast/expression.js';
import type { Span } from '../ast/span.js';
import type { FunctionSignature } from '../functions/signature.js';
import type { BoundPath, BoundQuery } from './bound-clause.js';
import type { StaticType } from './static-type.js';

/**
 * What a variable holds, as far as patterns care. A variable-length relationship binds a list of
 * relationships ('relationships'); everything that is not a graph element is a 'value'.
 */
export type VariableKind = 'node' | 'relationship' | 'relationships' | 'path' | 'value';

/**
 * One slot of a statement's rows. Every binding gets its own id, including each WITH/RETURN
 * column (a projection maps input slots to new output slots) and every unnamed pattern element.
 * Invariant: ids are dense, 0..n-1, and `BoundQueryStatement.variables[id]` is this variable.
 */
export interface BoundVariable {
  readonly id: number;
  /** The user's name; unnamed pattern elements and hidden aggregate slots get a name starting with a space. */
  readonly name: string;
  readonly kind: VariableKind;
  readonly type: StaticType;
  /** False for slots the user cannot refer to (unnamed pattern elements, aggregate results). */
  readonly visible: boolean;
}

interface Typed {
  readonly type: StaticType;
  readonly span: Span;
}

export type BoundMapProjectionItem =
  | { readonly kind: 'entry'; readonly key: string; readonly value: BoundExpression }
  | { readonly kind: 'property'; readonly key: string }
  | { readonly kind: 'all_properties' }
  | { readonly kind: 'variable'; readonly key: string; readonly variable: BoundVariable };

export type BoundExistsBody =
  | { readonly kind: 'pattern'; readonly pattern: readonly BoundPath[]; readonly where?: BoundExpression }
  | { readonly kind: 'query'; readonly query: BoundQuery };

export type BoundExpression = Typed &
  (
    | { readonly kind: 'literal'; readonly value: LiteralValue }
    | { readonly kind: 'list'; readonly items: readonly BoundExpression[] }
    | { readonly kind: 'map'; readonly entries: readonly { readonly key: string; readonly value: BoundExpression }[] }
    | { readonly kind: 'parameter'; readonly name: string }
    | { readonly kind: 'variable'; readonly variable: BoundVariable }
    | { readonly kind: 'property'; readonly object: BoundExpression; readonly key: string }
    | { readonly kind: 'index'; readonly object: BoundExpression; readonly index: BoundExpression }
    | { readonly kind: 'slice'; readonly object: BoundExpression; readonly from?: BoundExpression; readonly to?: BoundExpression }
    | { readonly kind: 'has_labels'; readonly subject: BoundExpression; readonly labels: readonly string[] }
    | { readonly kind: 'unary'; readonly op: UnaryOperator; readonly operand: BoundExpression }
    | { readonly kind: 'binary'; readonly op: BinaryOperator; readonly left: BoundExpression; readonly right: BoundExpression }
    | { readonly kind: 'is_null'; readonly operand: BoundExpression; readonly negated: boolean }
    /** A scalar function; `name` is the catalog's canonical name. */
    | {
        readonly kind: 'function';
        readonly name: string;
        readonly signature: FunctionSignature;
        readonly args: readonly BoundExpression[];
      }
    /**
     * An aggregate call. It appears only in `BoundAggregation.aggregates`; inside projection
     * columns it has been replaced by a reference to its result slot.
     */
    | {
        readonly kind: 'aggregate';
        readonly name: string;
        /** Absent for count(*). */
        readonly signature?: FunctionSignature;
        readonly distinct: boolean;
        /** Empty for count(*). */
        readonly args: readonly BoundExpression[];
        readonly star: boolean;
      }
    | {
        readonly kind: 'case';
        readonly subject?: BoundExpression;
        readonly alternatives: readonly { readonly when: BoundExpression; readonly then: BoundExpression }[];
        readonly otherwise?: BoundExpression;
      }
    | {
        readonly kind: 'list_comprehension';
        readonly variable: BoundVariable;
        readonly source: BoundExpression;
        readonly where?: BoundExpression;
        readonly projection?: BoundExpression;
      }
    | {
        readonly kind: 'pattern_comprehension';
        readonly path: BoundPath;
        readonly where?: BoundExpression;
        readonly projection: BoundExpression;
      }
    | {
        readonly kind: 'quantifier';
        readonly quantifier: QuantifierKind;
        readonly variable: BoundVariable;
        readonly source: BoundExpression;
        readonly where?: BoundExpression;
      }
    | {
        readonly kind: 'reduce';
        readonly accumulator: BoundVariable;
        readonly initial: BoundExpression;
        readonly variable: BoundVariable;
        readonly source: BoundExpression;
        readonly step: BoundExpression;
      }
    /** True when the path (whose variables are all bound outside) has a match. */
    | { readonly kind: 'pattern_predicate'; readonly path: BoundPath }
    | { readonly kind: 'exists_subquery'; readonly measure: SubqueryMeasure; readonly body: BoundExistsBody }
    | { readonly kind: 'map_projection'; readonly subject: BoundVariable; readonly items: readonly BoundMapProjectionItem[] }
  );

export type BoundExpressionKind = BoundExpression['kind'];
