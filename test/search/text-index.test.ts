import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/projections/search/analyzers.js';
import { porterStem } from '../../src/projections/search/porter-stemmer.js';
import { TextIndex } from '../../src/projections/search/text-index.js';
import { documentMatches, parseTextQuery } from '../../src/projections/search/text-query.js';
import { record } from './records.js';

describe('analyzers', () => {
  it('standard lower-cases Unicode words; whitespace keeps case; keyword keeps the whole value', () => {
    expect(analyze('standard', 'Hello, Wörld! 42-abc')).toEqual(['hello', 'wörld', '42', 'abc']);
    expect(analyze('whitespace', 'Hello,  Wörld!')).toEqual(['Hello,', 'Wörld!']);
    expect(analyze('keyword', 'New York')).toEqual(['New York']);
  });

  it('english drops stop words and stems', () => {
    expect(analyze('english', 'The runners were running to the connected stations')).toEqual(['runner', 'were', 'run', 'connect', 'station']);
  });

  it('the Porter stemmer gives the paper examples', () => {
    const cases: [string, string][] = [
      ['caresses', 'caress'],
      ['ponies', 'poni'],
      ['cats', 'cat'],
      ['agreed', 'agre'],
      ['plastered', 'plaster'],
      ['motoring', 'motor'],
      ['hopping', 'hop'],
      ['filing', 'file'],
      ['happy', 'happi'],
      ['relational', 'relat'],
      ['conditional', 'condit'],
      ['generalization', 'gener'],
      ['electrical', 'electr'],
      ['adjustable', 'adjust'],
      ['probate', 'probat'],
      ['controlling', 'control'],
      ['generously', 'gener'],
    ];
    for (const [w, s] of cases) expect([w, porterStem(w)]).toEqual([w, s]);
  });
});

describe('text queries and the inverted index', () => {
  const docs: Record<number, string> = {
    1: 'graph databases store nodes and edges',
    2: 'a vector database stores embeddings',
    3: 'nodes nodes nodes everywhere in the graph',
    4: 'databases of graphs, graph theory',
  };
  const index = new TextIndex('english', 'Doc', ['body']);
  for (const [id, body] of Object.entries(docs)) index.refresh(record(Number(id), ['Doc'], { body }));
  const match = (q: string) => index.matching('body', parseTextQuery('english', q));

  it('every clause must match: words (stemmed), phrases in order, prefixes', () => {
    expect(match('graph')).toEqual([1, 3, 4]);
    expect(match('Databases graph')).toEqual([1, 4]);
    expect(match('"graph databases"')).toEqual([1]);
    expect(match('"theory graph"')).toEqual([]);
    expect(match('embed*')).toEqual([2]);
    expect(match('the')).toEqual([]);
  });

  it('matching re-checks a document version the same way', () => {
    expect(documentMatches(analyze('english', 'Graph databases!'), parseTextQuery('english', '"graph database"'))).toBe(true);
    expect(documentMatches(analyze('english', 'database graph'), parseTextQuery('english', '"graph database"'))).toBe(false);
  });

  it('BM25 ranks more occurrences in a shorter document higher, and rarer terms weigh more', () => {
    const clauses = parseTextQuery('english', 'nodes');
    const s1 = index.score('body', analyze('english', docs[1]!), clauses);
    const s3 = index.score('body', analyze('english', docs[3]!), clauses);
    expect(s3).toBeGreaterThan(s1);
    const rare = index.score('body', analyze('english', docs[2]!), parseTextQuery('english', 'embeddings'));
    const common = index.score('body', analyze('english', docs[1]!), parseTextQuery('english', 'graph'));
    expect(rare).toBeGreaterThan(common);
  });

  it('updates and deletions leave no stale postings', () => {
    const t = new TextIndex('standard', 'Doc', ['a', 'b']);
    t.refresh(record(1, ['Doc'], { a: 'red fox', b: 'blue' }));
    t.refresh(record(1, ['Doc'], { a: 'green fox' }));
    expect(t.matching('a', parseTextQuery('standard', 'red'))).toEqual([]);
    expect(t.matching('a', parseTextQuery('standard', 'green'))).toEqual([1]);
    expect(t.matching('b', parseTextQuery('standard', 'blue'))).toEqual([]);
    t.refresh(record(1, ['Doc'], {}, true));
    expect(t.count()).toBe(0);
    expect(t.bytes()).toBe(0);
  });
});
