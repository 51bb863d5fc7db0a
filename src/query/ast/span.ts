/**
 * Where a node came from in the query text. Offsets are UTF-16 code unit offsets into the text
 * (`text.slice(start, end)` gives the node's source); line and column are 1-based and count code points.
 * Invariant: 0 <= start <= end <= text.length.
 */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
}

/** A span for nodes the builder synthesises (a desugared comparison chain keeps its parts' spans). */
export function joinSpans(a: Span, b: Span): Span {
  return { start: a.start, end: b.end, line: a.line, column: a.column };
}

export function describeSpan(span: Span): string {
  return `line ${span.line}, column ${span.column}`;
}
