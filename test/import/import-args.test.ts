import { describe, expect, it } from 'vitest';
import { parseImportArgs } from '../../src/cli/import-command.js';

describe('weft import arguments', () => {
  it('reads neo4j-admin style groups: labels or a type after =, files after the flag or after a second =, comma lists', () => {
    const { dataDir, options } = parseImportArgs([
      '--data-dir',
      'db',
      '--nodes=Person:Admin',
      'a.csv',
      'b.csv',
      '--nodes=City=h.csv,c.csv',
      '--nodes',
      'x.csv',
      '--relationships=KNOWS',
      'k.csv',
      '--relationships',
      'r1.csv,r2.csv',
      '--delimiter=TAB',
      '--id-type',
      'INTEGER',
      '--skip-bad-relationships',
      '--bad-tolerance',
      '5',
      '--into-existing',
    ]);
    expect(dataDir).toBe('db');
    expect(options).toEqual({
      nodes: [
        { labels: ['Person', 'Admin'], files: ['a.csv', 'b.csv'] },
        { labels: ['City'], files: ['h.csv', 'c.csv'] },
        { labels: [], files: ['x.csv'] },
      ],
      relationships: [{ type: 'KNOWS', files: ['k.csv'] }, { files: ['r1.csv', 'r2.csv'] }],
      id_type: 'integer',
      report_file: 'import.report',
      skip_bad_relationships: true,
      into_existing: true,
      delimiter: 'TAB',
      bad_tolerance: 5,
    });
  });

  it('refuses what it cannot mean: no data directory, a group without files, unknown flags, a bad id type', () => {
    expect(() => parseImportArgs(['--nodes', 'a.csv'])).toThrow(/--data-dir is required/);
    expect(() => parseImportArgs(['--data-dir', 'd', '--nodes=P', '--into-existing'])).toThrow(/needs at least one file/);
    expect(() => parseImportArgs(['--data-dir', 'd', '--nodes', 'a.csv', '--fast'])).toThrow(/unknown flag --fast/);
    expect(() => parseImportArgs(['--data-dir', 'd', '--nodes', 'a.csv', '--id-type', 'uuid'])).toThrow(/string or integer/);
    expect(() => parseImportArgs(['--data-dir', 'd', '--nodes', 'a.csv', '--bad-tolerance', '-1'])).toThrow(/whole number/);
  });
});
