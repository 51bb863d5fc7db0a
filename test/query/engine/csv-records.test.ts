import { describe, expect, it } from 'vitest';
import { CsvRecords, type CsvRecord } from '../../../src/query/execute/csv/csv-records.js';
import { prng, testSeed } from '../../support/prng.js';

/**
 * LOAD CSV's record parser fed in pieces, as a file or a stream hands them over: a record, a quote,
 * a `""`, a `\r\n` or a two-unit terminator split at any point between two pieces must read as when
 * the text comes whole.
 */
function parse(pieces: readonly string[], terminator = ','): CsvRecord[] {
  const records = new CsvRecords(terminator, 'test.csv');
  const out: CsvRecord[] = [];
  const drain = (): void => {
    for (let r = records.next(); r !== undefined; r = records.next()) out.push(r);
  };
  for (const piece of pieces) {
    records.push(piece);
    drain();
  }
  records.end();
  drain();
  return out;
}

/** `text` cut at random places (pieces of 0 to 7 code units). */
function cut(text: string, random: () => number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const n = Math.floor(random() * 8);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

const samples: readonly { readonly text: string; readonly terminator: string }[] = [
  { text: '\uFEFFid,name\r\n1,"Ada ""the"" first"\r\n2,"multi\r\nline",\r\n\r\n3,,""\r\n', terminator: ',' },
  { text: 'a;b\n"x;y";"back\\"slash"\n;\nlast;"no break"', terminator: ';' },
  { text: 'a𝄞b𝄞c\n1𝄞"2𝄞3"𝄞\n𝄞𝄞\n', terminator: '𝄞' },
  { text: 'a\tb\n"t\tab"\tplain"quote\n', terminator: '\t' },
];

describe('LOAD CSV records fed in pieces', () => {
  it('the whole text: fields, nulls, quotes and line numbers', () => {
    expect(parse([samples[0]!.text])).toEqual([
      { fields: ['id', 'name'], line: 1 },
      { fields: ['1', 'Ada "the" first'], line: 2 },
      { fields: ['2', 'multi\r\nline', null], line: 3 },
      { fields: ['3', null, ''], line: 6 },
    ]);
    expect(parse([samples[2]!.text], '𝄞')).toEqual([
      { fields: ['a', 'b', 'c'], line: 1 },
      { fields: ['1', '2𝄞3', null], line: 2 },
      { fields: [null, null, null], line: 3 },
    ]);
  });

  it('cut at random places, every sample reads as it does whole', () => {
    const seed = testSeed('csv pieces');
    const random = prng(seed);
    for (const { text, terminator } of samples) {
      const whole = parse([text], terminator);
      for (let round = 0; round < 200; round++) {
        expect(parse(cut(text, random), terminator), `seed ${seed}, ${JSON.stringify(text)}`).toEqual(whole);
      }
    }
  });

  it('cut between every pair of code units', () => {
    for (const { text, terminator } of samples) {
      const whole = parse([text], terminator);
      for (let i = 0; i <= text.length; i++) expect(parse([text.slice(0, i), text.slice(i)], terminator)).toEqual(whole);
    }
  });

  it('an unclosed quote and text after a closing quote are MalformedCsv with the line', () => {
    expect(() => parse(['a,b\n1,"open\n2,3\n'])).toThrow(expect.objectContaining({ reason: 'ExternalResourceFailed', metadata: expect.objectContaining({ detail: 'MalformedCsv' }) }));
    expect(() => parse(['a,b\n"x"y,2\n'])).toThrow(/test\.csv:2: a quoted field is followed by text/);
  });
});
