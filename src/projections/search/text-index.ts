import type { TextAnalyzerName } from '../../log/events.js';
import type { NodeRecord } from '../graph/records.js';
import { analyze } from './analyzers.js';
import type { SearchMaintenance } from './search-index.js';
import { clauseOccurrences, parseTextQuery, type TextClause } from './text-query.js';

/**
 * A full-text index of one label over one or more string properties: per property an inverted index
 * (term -> node -> positions), kept current at apply with the latest value of each node, pending
 * writes included. Scores are BM25 over the property's documents. A reader at a snapshot re-checks
 * each candidate against the version it sees (see IndexLookup's text search).
 */
export const bm25_k1 = 1.2;
/** Parsed queries a text index keeps (their clauses also key the document frequency cache). */
const parsed_queries_max = 64;
export const bm25_b = 0.75;

interface FieldDocument {
  /** The value analyzed: a reader seeing this same string reuses `terms` instead of analyzing again. */
  readonly text: string;
  /** The analyzed terms in order: phrase checks and re-scoring read them. */
  readonly terms: readonly string[];
}

class FieldIndex {
  /** term -> node id -> occurrences. Invariant: mirrors `docs` exactly. */
  readonly postings = new Map<string, Map<number, number>>();
  readonly docs = new Map<number, FieldDocument>();
  total_terms = 0;
  /** Terms in order, for prefix queries; rebuilt after a new term arrives. */
  private sorted: string[] | undefined;

  /** Bumped by every change: cached document frequencies of queries are valid for one version. */
  version = 0;

  set(id: number, text: string, terms: readonly string[]): void {
    const had = this.docs.get(id);
    if (had !== undefined && sameTerms(had.terms, terms)) return;
    this.remove(id);
    if (terms.length === 0) return;
    this.version++;
    this.docs.set(id, { text, terms });
    this.total_terms += terms.length;
    for (const t of terms) {
      let p = this.postings.get(t);
      if (p === undefined) {
        this.postings.set(t, (p = new Map()));
        this.sorted = undefined;
      }
      p.set(id, (p.get(id) ?? 0) + 1);
    }
  }

  remove(id: number): void {
    const had = this.docs.get(id);
    if (had === undefined) return;
    this.version++;
    this.docs.delete(id);
    this.total_terms -= had.terms.length;
    for (const t of had.terms) {
      const p = this.postings.get(t);
      if (p === undefined) continue;
      p.delete(id);
      if (p.size === 0) {
        this.postings.delete(t);
        this.sorted = undefined;
      }
    }
  }

  /** Terms starting with `prefix`, by binary search over the sorted terms. */
  termsWithPrefix(prefix: string): string[] {
    const sorted = (this.sorted ??= [...this.postings.keys()].sort());
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < sorted.length && sorted[i]!.startsWith(prefix); i++) out.push(sorted[i]!);
    return out;
  }

  /** Nodes holding a clause (a superset for phrases: every term present). */
  candidates(c: TextClause): Set<number> {
    switch (c.kind) {
      case 'term':
        return new Set(this.postings.get(c.term)?.keys() ?? []);
      case 'prefix': {
        const out = new Set<number>();
        for (const t of this.termsWithPrefix(c.prefix)) for (const id of this.postings.get(t)!.keys()) out.add(id);
        return out;
      }
      case 'phrase': {
        let out: Set<number> | undefined;
        for (const t of [...c.terms].sort((a, b) => (this.postings.get(a)?.size ?? 0) - (this.postings.get(b)?.size ?? 0))) {
          const p = this.postings.get(t);
          if (p === undefined) return new Set();
          out = out === undefined ? new Set(p.keys()) : new Set([...out].filter((id) => p.has(id)));
        }
        return out ?? new Set();
      }
    }
  }

  /** Documents holding a clause, as BM25's document frequency (a prefix: the union of its terms). */
  documentFrequency(c: TextClause): number {
    return c.kind === 'term' ? (this.postings.get(c.term)?.size ?? 0) : this.candidates(c).size;
  }
}

export class TextIndex implements SearchMaintenance {
  readonly kind = 'text' as const;
  private readonly fields = new Map<string, FieldIndex>();
  /** Nodes with at least one indexed property, by the number of their indexed properties. */
  private readonly holders = new Map<number, number>();

  constructor(
    readonly analyzer: TextAnalyzerName,
    readonly label: string,
    readonly properties: readonly string[],
  ) {
    for (const p of properties) this.fields.set(p, new FieldIndex());
  }

  refresh(record: NodeRecord): void {
    const head = record.head;
    const live = !head.deleted && head.labels.includes(this.label);
    let held = 0;
    for (const [p, field] of this.fields) {
      const v = live ? head.props.get(p) : undefined;
      const had = field.docs.get(record.id);
      if (had !== undefined && had.text === v) {
        held++;
        continue;
      }
      const terms = typeof v === 'string' ? analyze(this.analyzer, v) : [];
      field.set(record.id, typeof v === 'string' ? v : '', terms);
      if (terms.length > 0) held++;
    }
    if (held > 0) this.holders.set(record.id, held);
    else this.holders.delete(record.id);
  }

  forget(id: number): void {
    for (const field of this.fields.values()) field.remove(id);
    this.holders.delete(id);
  }

  count(): number {
    return this.holders.size;
  }

  /** Postings and documents: about 48 bytes per posting and 16 per stored term. */
  bytes(): number {
    let n = 0;
    for (const f of this.fields.values()) {
      for (const p of f.postings.values()) n += 48 * p.size;
      n += 16 * f.total_terms;
    }
    return n;
  }

  covers(property: string): boolean {
    return this.fields.has(property);
  }

  /**
   * The terms of a text as this index analyzes it: the stored ones when the node's indexed value is
   * this very text (the common case of a reader at the latest version), else analyzed now.
   */
  termsOf(property: string, id: number, text: string): readonly string[] {
    const doc = this.fields.get(property)?.docs.get(id);
    return doc !== undefined && doc.text === text ? doc.terms : analyze(this.analyzer, text);
  }

  /** A query parsed for this index's analyzer; the last few are kept, as one statement asks per row. */
  parse(query: string): readonly TextClause[] {
    let clauses = this.parsed.get(query);
    if (clauses === undefined) {
      clauses = parseTextQuery(this.analyzer, query);
      if (this.parsed.size >= parsed_queries_max) this.parsed.delete(this.parsed.keys().next().value as string);
      this.parsed.set(query, clauses);
    }
    return clauses;
  }

  private readonly parsed = new Map<string, readonly TextClause[]>();
  /** Document frequencies of clauses, by property and clause, valid while the field's version holds. */
  private readonly frequencies = new Map<FieldIndex, { version: number; df: Map<TextClause, number> }>();

  private documentFrequency(field: FieldIndex, c: TextClause): number {
    let cache = this.frequencies.get(field);
    if (cache === undefined || cache.version !== field.version) this.frequencies.set(field, (cache = { version: field.version, df: new Map() }));
    let df = cache.df.get(c);
    if (df === undefined) cache.df.set(c, (df = field.documentFrequency(c)));
    return df;
  }

  /** Nodes whose latest value of `property` matches every clause. */
  matching(property: string, clauses: readonly TextClause[]): number[] {
    const field = this.fields.get(property);
    if (field === undefined || clauses.length === 0) return [];
    const sets = clauses.map((c) => field.candidates(c)).sort((a, b) => a.size - b.size);
    const out: number[] = [];
    for (const id of sets[0]!) {
      if (!sets.every((s) => s.has(id))) continue;
      const doc = field.docs.get(id);
      // Phrase candidates hold every term; the positions decide.
      if (doc !== undefined && clauses.every((c) => c.kind !== 'phrase' || clauseOccurrences(doc.terms, c) > 0)) out.push(id);
    }
    return out.sort((a, b) => a - b);
  }

  /**
   * BM25 of a document (its analyzed terms, which may be an older version than the index holds)
   * under the property's current statistics: the sum over clauses of idf * tf * (k1 + 1) /
   * (tf + k1 * (1 - b + b * length / average length)).
   */
  score(property: string, terms: readonly string[], clauses: readonly TextClause[]): number {
    const field = this.fields.get(property);
    if (field === undefined || terms.length === 0) return 0;
    const n = field.docs.size;
    const avg = n === 0 ? terms.length : field.total_terms / n;
    let score = 0;
    for (const c of clauses) {
      const tf = clauseOccurrences(terms, c);
      if (tf === 0) continue;
      const df = this.documentFrequency(field, c);
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * tf * (bm25_k1 + 1)) / (tf + bm25_k1 * (1 - bm25_b + (bm25_b * terms.length) / avg));
    }
    return score;
  }
}

function sameTerms(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}
