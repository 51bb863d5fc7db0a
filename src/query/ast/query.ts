import type { Clause } from './clause.js';
import type { Span } from './span.js';

/** A sequence of clauses between UNIONs. Invariant: non-empty. */
export interface SingleQuery {
  readonly clauses: readonly Clause[];
  readonly span: Span;
}

/**
 * One query: a single query, or several joined by UNION (duplicates removed) or UNION ALL.
 * Invariant: parts is non-empty; mixing UNION and UNION ALL is refused by the parser.
 */
export interface Query {
  readonly kind: 'query';
  readonly parts: readonly SingleQuery[];
  readonly union_all: boolean;
  readonly span: Span;
}
