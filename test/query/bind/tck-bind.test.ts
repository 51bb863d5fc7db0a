import { describe, expect, it } from 'vitest';
import { bind } from '../../../src/query/bind/index.js';
import { parse } from '../../../src/query/parse/index.js';
import { CypherError } from '../../../src/query/errors.js';
import { loadTckQueries, type TckQuery } from '../parse/tck-queries.js';
import { procedureCatalog, test_functions } from './test-catalog.js';

const queries = loadTckQueries();

function compile(q: TckQuery): void {
  const statement = parse(q.text);
  bind(statement, {
    functions: test_functions,
    procedures: procedureCatalog(q.procedures),
    // Only the query under test sees the scenario's parameters.
    ...(q.role === 'query' && { parameters: new Set(q.parameters) }),
  });
}

/** The runner's matching rule: type, phase and detail all match, `Error`, `any time` and `*` match anything. */
function matches(e: CypherError, want: NonNullable<TckQuery['error']>): boolean {
  return (
    (want.type === 'Error' || want.type === e.type) &&
    (want.phase === 'any time' || want.phase === e.phase) &&
    (want.detail === '*' || want.detail === e.detail)
  );
}

describe('TCK queries through parse and bind', () => {
  const expect_error = queries.filter((q) => q.error?.phase === 'compile time');
  const expect_ok = queries.filter((q) => q.error?.phase !== 'compile time');

  it('raises the expected compile-time error (type, phase and detail) for every scenario that expects one', () => {
    const failures: string[] = [];
    for (const q of expect_error) {
      try {
        compile(q);
        failures.push(`${q.id}: compiled, expected ${q.error!.type} ${q.error!.detail}\n${q.text}`);
      } catch (e) {
        if (!(e instanceof CypherError)) throw e;
        if (!matches(e, q.error!)) {
          failures.push(`${q.id}: got ${e.type} ${e.detail} (${e.message}), expected ${q.error!.type} ${q.error!.detail}\n${q.text}`);
        }
      }
    }
    console.log(`tck compile-time errors: ${expect_error.length - failures.length}/${expect_error.length} strict matches`);
    expect(failures).toEqual([]);
  });

  it('parses and binds every other query, setup query and control query without error', () => {
    const failures: string[] = [];
    for (const q of expect_ok) {
      try {
        compile(q);
      } catch (e) {
        if (!(e instanceof CypherError)) throw e;
        failures.push(`${q.id} (${q.role}): ${e.type} ${e.detail}: ${e.message}\n${q.text}`);
      }
    }
    console.log(`tck compile: ${expect_ok.length - failures.length}/${expect_ok.length} bound without error`);
    expect(failures).toEqual([]);
  });
});
