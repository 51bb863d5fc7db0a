import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DateValue, DurationValue } from '../../src/common/values/temporal.js';
import { CsvError, CsvReader } from '../../src/server/import/csv-reader.js';
import { HeaderError, parseHeader } from '../../src/server/import/header.js';
import { convert } from '../../src/server/import/values.js';

const dir = mkdtempSync(join(tmpdir(), 'weft-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every row of a file as [line, fields], an absent field as null. */
function rowsOf(text: string, chunk_bytes?: number, delimiter = ','): [number, (string | null)[]][] {
  const path = join(dir, 'f.csv');
  writeFileSync(path, text);
  const r = new CsvReader(path, delimiter.charCodeAt(0), chunk_bytes);
  const out: [number, (string | null)[]][] = [];
  try {
    while (r.next()) {
      const fields: (string | null)[] = [];
      for (let i = 0; i < r.fields; i++) fields.push(r.absent(i) ? null : r.text(i));
      out.push([r.line, fields]);
    }
  } finally {
    r.close();
  }
  return out;
}

describe('CSV reader', () => {
  const text = 'a,b,c\r\n1,"x,y",""\n\n"multi\nline","say ""hi""",\n,last';
  const expected = [
    [1, ['a', 'b', 'c']],
    [2, ['1', 'x,y', '']],
    [4, ['multi\nline', 'say "hi"', null]],
    [6, [null, 'last']],
  ];

  it('reads quoted fields with delimiters, quotes and line breaks, CRLF, blank lines, and names the line each row starts on', () => {
    expect(rowsOf(text)).toEqual(expected);
  });

  it('gives the same rows whatever the chunk size, so rows and quoted fields may straddle chunk boundaries', () => {
    for (let chunk = 1; chunk <= 24; chunk++) expect(rowsOf(text, chunk), `chunk ${chunk}`).toEqual(expected);
  });

  it('reads another delimiter, and a quoted empty field is an empty string while an unquoted one is absent', () => {
    expect(rowsOf('x\t""\t\n', undefined, '\t')).toEqual([[1, ['x', '', null]]]);
  });

  it('refuses a quote left open at the end of the file, naming the line', () => {
    expect(() => rowsOf('a,b\n1,"open\n2,3\n')).toThrow(CsvError);
    expect(() => rowsOf('a,b\n1,"open\n2,3\n')).toThrow(/f\.csv:2: a quoted field is not closed/);
  });
});

describe('header mapping', () => {
  it('maps neo4j-admin node columns: ID with its space, LABEL, typed and array properties, IGNORE', () => {
    expect(parseHeader(['personId:ID(Person)', ':LABEL', 'name', 'age:int', 'score:double', 'tags:string[]', 'skip:IGNORE', 'ok:boolean'], 'nodes', 'h')).toEqual([
      { kind: 'id', name: 'personId', space: 'Person' },
      { kind: 'label' },
      { kind: 'property', name: 'name', scalar: 'string', array: false },
      { kind: 'property', name: 'age', scalar: 'int', array: false },
      { kind: 'property', name: 'score', scalar: 'float', array: false },
      { kind: 'property', name: 'tags', scalar: 'string', array: true },
      { kind: 'ignore' },
      { kind: 'property', name: 'ok', scalar: 'boolean', array: false },
    ]);
  });

  it('maps relationship columns; an ID without a space is in the default space', () => {
    expect(parseHeader([':START_ID(A)', ':END_ID', ':TYPE', 'since:long'], 'relationships', 'h')).toEqual([
      { kind: 'start_id', space: 'A' },
      { kind: 'end_id', space: '' },
      { kind: 'type' },
      { kind: 'property', name: 'since', scalar: 'int', array: false },
    ]);
  });

  it('refuses headers that cannot be meant: unknown types, relationship fields in a node file, missing endpoints, a property twice', () => {
    expect(() => parseHeader(['x:decimal'], 'nodes', 'h')).toThrow(HeaderError);
    expect(() => parseHeader([':START_ID', 'name'], 'nodes', 'h')).toThrow(/START_ID/);
    expect(() => parseHeader([':START_ID', 'since:int'], 'relationships', 'h')).toThrow(/exactly one START_ID and one END_ID/);
    expect(() => parseHeader(['a', 'a:int'], 'nodes', 'h')).toThrow(/appears twice/);
    expect(() => parseHeader([':int'], 'nodes', 'h')).toThrow(/no name/);
  });
});

describe('field types', () => {
  it('converts to Weft values: int to a 64-bit bigint, float, boolean, arrays on the array delimiter, temporal types', () => {
    expect(convert(' 42 ', 'int', false, ';')).toEqual({ ok: true, value: 42n });
    expect(convert('9223372036854775807', 'int', false, ';')).toEqual({ ok: true, value: 9223372036854775807n });
    expect(convert('2.5', 'float', false, ';')).toEqual({ ok: true, value: 2.5 });
    expect(convert('TRUE', 'boolean', false, ';')).toEqual({ ok: true, value: true });
    expect(convert('1;2;3', 'int', true, ';')).toEqual({ ok: true, value: [1n, 2n, 3n] });
    expect(convert('a|b', 'string', true, '|')).toEqual({ ok: true, value: ['a', 'b'] });
    const date = convert('2024-02-29', 'date', false, ';');
    expect(date.ok && date.value instanceof DateValue).toBe(true);
    const duration = convert('P1DT2H', 'duration', false, ';');
    expect(duration.ok && duration.value instanceof DurationValue).toBe(true);
  });

  it('converts a point from the map text Neo4j imports, in any of the four CRSs, and arrays of points of one CRS', () => {
    const text = (t: string, array = false): string => {
      const v = convert(t, 'point', array, ';');
      return v.ok ? String(v.value) : `refused: ${v.reason}`;
    };
    expect(text('{latitude: 55.6121514, longitude: 12.9950357}')).toBe("point({x: 12.9950357, y: 55.6121514, crs: 'wgs-84'})");
    expect(text("{x: 1, y: 2.5, crs: 'cartesian'}")).toBe("point({x: 1.0, y: 2.5, crs: 'cartesian'})");
    expect(text('{x:1,y:2,z:3}')).toBe("point({x: 1.0, y: 2.0, z: 3.0, crs: 'cartesian-3d'})");
    expect(text('{y: 12.3, x: 56.7, crs: WGS-84}')).toBe("point({x: 56.7, y: 12.3, crs: 'wgs-84'})");
    expect(text('{latitude: 1, longitude: 2, height: 3, srid: 4979}')).toBe("point({x: 2.0, y: 1.0, z: 3.0, crs: 'wgs-84-3d'})");
    expect(text('{x: 1, y: 2};{x: 3, y: 4}', true)).toBe("point({x: 1.0, y: 2.0, crs: 'cartesian'}),point({x: 3.0, y: 4.0, crs: 'cartesian'})");
    for (const bad of ['', '1,2', '{x: 1}', '{latitude: 91, longitude: 0}', "{x: 1, y: 2, crs: 'mercator'}", '{x 1, y: 2}', "{x: 'a', y: 2}"]) {
      expect(text(bad)).toBe(`refused: '${bad}' is not a point`);
    }
    expect(text('{x: 1, y: 2};{latitude: 1, longitude: 2}', true)).toMatch(/mixes points of different CRSs/);
  });

  it('says why a field is not of its type', () => {
    expect(convert('4x', 'int', false, ';')).toEqual({ ok: false, reason: "'4x' is not an int" });
    expect(convert('9223372036854775808', 'int', false, ';').ok).toBe(false);
    expect(convert('yes', 'boolean', false, ';')).toEqual({ ok: false, reason: "'yes' is not a boolean" });
    expect(convert('1;b', 'float', true, ';')).toEqual({ ok: false, reason: "array element 'b' is not a float" });
    expect(convert('2024-13-01', 'date', false, ';').ok).toBe(false);
  });
});
