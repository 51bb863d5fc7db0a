import { describe, expect, it } from 'vitest';
import { regexMatch } from '../../src/query/values/coerce.js';
import { CypherError } from '../../src/query/errors.js';

describe('=~ on a linear-time engine', () => {
  it('a pattern that backtracks exponentially elsewhere answers at once: (a+)+$ on 30 a and a bang', () => {
    expect(regexMatch(`${'a'.repeat(30)}!`, '(a+)+$')).toBe(false);
    expect(regexMatch('a'.repeat(5000), '(a|aa)*(a|aa)*b')).toBe(false);
    expect(regexMatch('a'.repeat(30), '(a+)+$')).toBe(true);
  });

  it('keeps Java matches semantics: the whole string, dot stops at a line break, inline flags', () => {
    expect(regexMatch('Person', 'Pers')).toBe(false);
    expect(regexMatch('Person', 'P.*n')).toBe(true);
    expect(regexMatch('a\nb', 'a.b')).toBe(false);
    expect(regexMatch('a\nb', '(?s)a.b')).toBe(true);
    expect(regexMatch('ABC', '(?i)abc')).toBe(true);
    expect(regexMatch('x', null)).toBe(null);
    expect(regexMatch(1n, 'x')).toBe(null);
  });

  it('refuses what RE2 cannot run in linear time (backreferences, lookaround) as an invalid argument', () => {
    for (const pattern of ['(a)\\1', '(?=a)a', '[a']) {
      let caught: unknown;
      try {
        regexMatch('aa', pattern);
      } catch (e) {
        caught = e;
      }
      expect(caught, pattern).toBeInstanceOf(CypherError);
      expect((caught as CypherError).message).toContain('invalid regular expression');
    }
  });
});
