import { describe, expect, it } from 'vitest';
import { parse } from '../../../src/query/parse/index.js';
import { CypherError } from '../../../src/query/errors.js';
import { loadTckQueries } from './tck-queries.js';

const queries = loadTckQueries();
const must_parse = queries.filter((q) => q.error?.phase !== 'compile time');

describe('TCK queries through the parser', () => {
  it('finds the TCK scenarios (outlines expanded)', () => {
    expect(queries.length).toBeGreaterThan(3000);
    expect(must_parse.length).toBeGreaterThan(3000);
  });

  it('parses every query, setup query and control query that is not expected to fail at compile time', () => {
    const failures: string[] = [];
    for (const q of must_parse) {
      try {
        parse(q.text);
      } catch (e) {
        failures.push(`${q.id} (${q.role}): ${e instanceof Error ? e.message : String(e)}\n${q.text}`);
      }
    }
    console.log(`tck parse: ${must_parse.length - failures.length}/${must_parse.length} parsed`);
    expect(failures).toEqual([]);
  });

  it('raises only CypherError for the queries expected to fail at compile time', () => {
    for (const q of queries.filter((x) => x.error?.phase === 'compile time')) {
      try {
        parse(q.text);
      } catch (e) {
        expect(e).toBeInstanceOf(CypherError);
      }
    }
  });
});
