import type { TextAnalyzerName } from '../../log/events.js';
import { analyze, analyzePrefix } from './analyzers.js';

/**
 * The text query language of `text_match` and `text_score`: words, `"quoted phrases"` and `prefix*`
 * terms, separated by spaces. A document matches when every clause does (AND): a word when its
 * terms all occur, a phrase when its terms occur next to each other in order, a prefix when some
 * term starts with it. Words are analyzed as the index's documents are, so `Running` finds `runs`
 * under the english analyzer. A clause the analyzer reduces to nothing (a stop word) is dropped.
 */
export type TextClause =
  | { readonly kind: 'term'; readonly term: string }
  | { readonly kind: 'phrase'; readonly terms: readonly string[] }
  | { readonly kind: 'prefix'; readonly prefix: string };

const clause_pattern = /"([^"]*)"|(\S+)/gu;

export function parseTextQuery(analyzer: TextAnalyzerName, query: string): TextClause[] {
  const out: TextClause[] = [];
  if (analyzer === 'keyword') {
    // The whole value is one term: the whole query is that term (or a prefix of it).
    if (query.endsWith('*') && query.length > 1) out.push({ kind: 'prefix', prefix: query.slice(0, -1) });
    else if (query !== '') out.push({ kind: 'term', term: query });
    return out;
  }
  for (const m of query.matchAll(clause_pattern)) {
    const phrase = m[1];
    const word = m[2];
    if (phrase !== undefined) {
      const terms = analyze(analyzer, phrase);
      if (terms.length === 1) out.push({ kind: 'term', term: terms[0]! });
      else if (terms.length > 1) out.push({ kind: 'phrase', terms });
    } else if (word !== undefined && word.endsWith('*') && word.length > 1) {
      const prefix = analyzePrefix(analyzer, word.slice(0, -1));
      if (prefix !== undefined) out.push({ kind: 'prefix', prefix });
    } else if (word !== undefined) {
      for (const term of analyze(analyzer, word)) out.push({ kind: 'term', term });
    }
  }
  return out;
}

/** Whether an analyzed document (its terms in order) matches every clause. No clause matches nothing. */
export function documentMatches(terms: readonly string[], clauses: readonly TextClause[]): boolean {
  if (clauses.length === 0) return false;
  return clauses.every((c) => clauseOccurrences(terms, c) > 0);
}

/** How many times a clause occurs in a document: its term frequency for BM25. */
export function clauseOccurrences(terms: readonly string[], c: TextClause): number {
  let n = 0;
  switch (c.kind) {
    case 'term':
      for (const t of terms) if (t === c.term) n++;
      return n;
    case 'prefix':
      for (const t of terms) if (t.startsWith(c.prefix)) n++;
      return n;
    case 'phrase':
      for (let i = 0; i + c.terms.length <= terms.length; i++) {
        if (c.terms.every((t, k) => terms[i + k] === t)) n++;
      }
      return n;
  }
}
