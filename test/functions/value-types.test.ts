import { describe, expect, it } from 'vitest';
import { isOfType, resolveWrittenType, typeFromText, typeText, valueTypeOf } from '../../src/query/functions/value-types.js';

const written = (text: string): string => {
  const t = resolveWrittenType([{ words: text.split(' '), not_null: false }]);
  return typeof t === 'string' ? t : typeText(t);
};

describe('value types as type predicates and valueType() see them', () => {
  it('maps every synonym a user may write onto one canonical name', () => {
    expect(written('TIMESTAMP WITHOUT TIME ZONE')).toBe('LOCAL DATETIME');
    expect(written('time with time zone')).toBe('ZONED TIME');
    expect(written('ANY EDGE')).toBe('RELATIONSHIP');
    expect(written('WHOLE NUMBER')).toBe('unknown type WHOLE NUMBER');
  });

  it('reads back the canonical text it prints, unions and nested lists included', () => {
    for (const text of ['INTEGER NOT NULL | STRING NOT NULL', 'INTEGER | STRING', 'LIST<LIST<FLOAT NOT NULL> NOT NULL>', 'NULL', 'NOTHING', 'PROPERTY VALUE NOT NULL']) {
      expect(typeText(typeFromText(text))).toBe(text);
    }
  });

  it('refuses a union whose types are partly NOT NULL: null belongs to no one of them', () => {
    const mixed = resolveWrittenType([
      { words: ['INTEGER'], not_null: true },
      { words: ['STRING'], not_null: false },
    ]);
    expect(mixed).toBe('all types in a closed dynamic union must be nullable, or each be followed by NOT NULL');
  });

  it('names a mixed list by the union of its element types, nullable when an element is null', () => {
    expect(typeText(valueTypeOf([1n, 'a']))).toBe('LIST<STRING NOT NULL | INTEGER NOT NULL> NOT NULL');
    expect(typeText(valueTypeOf([1n, null, 2.5]))).toBe('LIST<INTEGER | FLOAT> NOT NULL');
    expect(typeText(valueTypeOf([null]))).toBe('LIST<NULL> NOT NULL');
  });

  it('checks each value against the type it reports for itself', () => {
    const samples = [1n, 2.5, 'x', true, null, [1n, null], [], new Map([['k', 1n]]), [[1n], ['y']]];
    for (const v of samples) expect(isOfType(v, valueTypeOf(v))).toBe(true);
    expect(isOfType(null, typeFromText('NOTHING'))).toBe(false);
    expect(isOfType([1n, 'x'], typeFromText('PROPERTY VALUE'))).toBe(false);
  });
});
