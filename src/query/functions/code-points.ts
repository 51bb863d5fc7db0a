/**
 * Strings measured in characters (Unicode code points), not UTF-16 code units: `size('😀')` is 1 and
 * `substring` never splits a surrogate pair into two halves that are not characters. Strings without
 * surrogates (nearly all) take the plain code-unit path.
 */

const surrogate = /[\uD800-\uDFFF]/;

export function codePointLength(s: string): number {
  if (!surrogate.test(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The characters from `start` (inclusive) to `end` (exclusive, clamped to the length), by code point. */
export function codePointSlice(s: string, start: number, end = Infinity): string {
  if (!surrogate.test(s)) return s.slice(start, end);
  return Array.from(s).slice(start, end).join('');
}
