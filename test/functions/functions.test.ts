import { describe, expect, it } from 'vitest';
import { functionCatalog, lookupFunction, allFunctions } from '../../src/query/functions/catalog.js';
import { roundDecimal } from '../../src/query/functions/math-functions.js';
import { nodeRef, pathValue, relationshipRef } from '../../src/common/values/value.js';
import { call, errorOf, m, text } from './support.js';

describe('the catalog', () => {
  it('looks names up case-insensitively and knows arities and kinds', () => {
    expect(functionCatalog.lookup('toUpper')).toMatchObject({ name: 'toupper', min_args: 1, max_args: 1, kind: 'scalar' });
    expect(functionCatalog.lookup('COUNT')?.kind).toBe('aggregate');
    expect(functionCatalog.lookup('coalesce')?.max_args).toBe(Infinity);
    expect(functionCatalog.lookup('date.truncate')).toMatchObject({ min_args: 1, max_args: 3 });
    expect(functionCatalog.lookup('rand')?.deterministic).toBe(false);
    expect(functionCatalog.lookup('nosuchfunction')).toBeUndefined();
  });

  it('names every function in canonical lower case', () => {
    for (const f of allFunctions()) expect(f.name).toBe(f.name.toLowerCase());
  });

  it('marks text_match as needing a text index and refuses it without one', () => {
    const f = lookupFunction('text_match');
    expect(f?.kind === 'scalar' && f.requires).toBe('text_index');
    expect(errorOf(() => call('text_match', 'a', 'b'))).toBe('SemanticError/TextIndexRequired');
  });
});

describe('graph accessors', () => {
  it('read through the function context', () => {
    expect(call('labels', nodeRef(1))).toEqual(['A', 'B']);
    expect(call('type', relationshipRef(5))).toBe('KNOWS');
    expect(call('id', nodeRef(9))).toBe(9n);
    expect(call('keys', nodeRef(2))).toEqual(['name']);
    expect(call('properties', relationshipRef(3))).toEqual(m({ since: 2020n }));
    expect(call('startNode', relationshipRef(3))).toEqual(nodeRef(1));
    expect(call('nodes', pathValue([1, 2], [3]))).toEqual([nodeRef(1), nodeRef(2)]);
    expect(call('length', pathValue([1, 2], [3]))).toBe(1n);
    expect(call('labels', null)).toBeNull();
    expect(errorOf(() => call('labels', 1n))).toBe('TypeError/InvalidArgumentValue');
  });
});

describe('string functions', () => {
  it('transform and slice strings', () => {
    expect(call('toUpper', 'abc')).toBe('ABC');
    expect(call('trim', '  a b  ')).toBe('a b');
    expect(call('ltrim', '  a ')).toBe('a ');
    expect(call('replace', 'hello', 'l', 'w')).toBe('hewwo');
    expect(call('replace', 'ab', '', '-')).toBe('-a-b-');
    expect(call('replace', 'a.b', '.', '$&$&')).toBe('a$&$&b');
    expect(call('substring', 'hello', 1n, 3n)).toBe('ell');
    expect(call('substring', 'hello', 1n)).toBe('ello');
    expect(call('left', 'hello', 2n)).toBe('he');
    expect(call('right', 'hello', 10n)).toBe('hello');
    expect(call('split', 'a,b,,c', ',')).toEqual(['a', 'b', '', 'c']);
    expect(call('split', 'a,b;c', [',', ';'])).toEqual(['a', 'b', 'c']);
    expect(call('reverse', 'abc')).toBe('cba');
    expect(call('size', 'abc')).toBe(3n);
    expect(call('toUpper', null)).toBeNull();
    expect(errorOf(() => call('substring', 'a', -1n))).toBe('ArgumentError/NumberOutOfRange');
    expect(errorOf(() => call('toUpper', 1n))).toBe('TypeError/InvalidArgumentValue');
  });
});

describe('list functions', () => {
  it('build and take apart lists', () => {
    expect(call('range', 0n, 10n, 3n)).toEqual([0n, 3n, 6n, 9n]);
    expect(call('range', 5n, 1n, -2n)).toEqual([5n, 3n, 1n]);
    expect(call('range', 1n, 0n)).toEqual([]);
    expect(call('head', [1n, 2n])).toBe(1n);
    expect(call('last', [])).toBeNull();
    expect(call('tail', [1n, 2n])).toEqual([2n]);
    expect(call('reverse', [1n, null])).toEqual([null, 1n]);
    expect(call('coalesce', null, null, 3n, 4n)).toBe(3n);
    expect(errorOf(() => call('range', 2n, 8n, 0n))).toBe('ArgumentError/NumberOutOfRange');
    expect(errorOf(() => call('range', 0n, 1.5))).toBe('TypeError/InvalidArgumentType');
    expect(errorOf(() => call('range', 0n, 10n ** 12n))).toBe('ArgumentError/NumberOutOfRange');
  });
});

describe('math functions', () => {
  it('keep INTEGER where Cypher does and give FLOAT elsewhere', () => {
    expect(call('abs', -3n)).toBe(3n);
    expect(call('abs', -3.5)).toBe(3.5);
    expect(call('sign', -2.5)).toBe(-1n);
    expect(call('ceil', 1n)).toBe(1);
    expect(call('floor', -1.5)).toBe(-2);
    expect(call('round', -1.5)).toBe(-1);
    expect(call('round', 2.5)).toBe(3);
    expect(call('sqrt', 16n)).toBe(4);
    expect(call('rand')).toBe(0.25);
    expect(call('atan2', 1n, 1n)).toBeCloseTo(Math.PI / 4);
    expect(errorOf(() => call('abs', -(2n ** 63n)))).toBe('ArithmeticError/IntegerOverflow');
  });

  it('rounds to a precision in decimal with every rounding mode', () => {
    expect(roundDecimal(3.14159, 2, 'HALF_UP')).toBe(3.14);
    expect(roundDecimal(2.675, 2, 'HALF_UP')).toBe(2.68);
    expect(roundDecimal(-1.5, 0, 'HALF_UP')).toBe(-2);
    expect(roundDecimal(-1.5, 0, 'HALF_EVEN')).toBe(-2);
    expect(roundDecimal(2.5, 0, 'HALF_EVEN')).toBe(2);
    expect(roundDecimal(2.5, 0, 'HALF_DOWN')).toBe(2);
    expect(roundDecimal(1.21, 1, 'UP')).toBe(1.3);
    expect(roundDecimal(-1.21, 1, 'CEILING')).toBe(-1.2);
    expect(roundDecimal(-1.21, 1, 'FLOOR')).toBe(-1.3);
    expect(roundDecimal(1234.5, -2, 'HALF_UP')).toBe(1200);
    expect(call('round', 1.005, 2n, 'HALF_UP')).toBe(1.01);
    expect(errorOf(() => call('round', 1.5, 0n, 'SIDEWAYS'))).toBe('ArgumentError/InvalidArgumentValue');
  });
});

describe('conversion functions', () => {
  it('convert what can be converted and give null for unparsable strings', () => {
    expect(call('toInteger', '42')).toBe(42n);
    expect(call('toInteger', '2.9')).toBe(2n);
    expect(call('toInteger', -2.9)).toBe(-2n);
    expect(call('toInteger', 'x')).toBeNull();
    expect(call('toInteger', true)).toBe(1n);
    expect(call('toFloat', '1e3')).toBe(1000);
    expect(call('toFloat', 3n)).toBe(3);
    expect(call('toFloat', 'abc')).toBeNull();
    expect(call('toBoolean', ' TRUE ')).toBe(true);
    expect(call('toBoolean', 'yes')).toBeNull();
    expect(call('toBoolean', 0n)).toBe(false);
    expect(call('toString', 1.0)).toBe('1.0');
    expect(call('toString', 42n)).toBe('42');
    expect(text('toString', call('date', '2015-07-21'))).toBe('2015-07-21');
  });

  it('raise TypeError/InvalidArgumentValue for types that never convert, except in the OrNull forms', () => {
    expect(errorOf(() => call('toBoolean', 1.0))).toBe('TypeError/InvalidArgumentValue');
    expect(errorOf(() => call('toFloat', true))).toBe('TypeError/InvalidArgumentValue');
    expect(errorOf(() => call('toString', []))).toBe('TypeError/InvalidArgumentValue');
    expect(errorOf(() => call('toInteger', m({})))).toBe('TypeError/InvalidArgumentValue');
    expect(call('toStringOrNull', [])).toBeNull();
    expect(call('toIntegerList', ['1', 'x', 2.5])).toEqual([1n, null, 2n]);
  });
});

describe('vector_distance', () => {
  it('computes cosine distance by default and the other metrics on request', () => {
    const a = new Float32Array([1, 0]);
    const b = new Float32Array([0, 1]);
    expect(call('vector_distance', a, b)).toBeCloseTo(1);
    expect(call('vector_distance', a, a)).toBeCloseTo(0);
    expect(call('vector_distance', a, [0n, 2n], 'euclidean')).toBeCloseTo(Math.sqrt(5));
    expect(call('vector_distance', a, [0.5, 0.5], 'manhattan')).toBeCloseTo(1);
    expect(call('vector_distance', a, [3, 4], 'dot')).toBeCloseTo(-3);
    expect(call('vector_distance', null, a)).toBeNull();
    expect(errorOf(() => call('vector_distance', a, [1, 2, 3]))).toBe('ArgumentError/InvalidArgumentValue');
    expect(errorOf(() => call('vector_distance', a, ['x', 1]))).toBe('TypeError/InvalidArgumentValue');
  });
});
