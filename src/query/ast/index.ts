export type * from './clause.js';
export type * from './expression.js';
export type * from './pattern.js';
export type * from './query.js';
export type * from './statement.js';
export type { Span } from './span.js';
export { describeSpan, joinSpans } from './span.js';
export { clauseUpdates, isUpdatingClause } from './clause.js';
