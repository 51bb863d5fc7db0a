import type { Value } from '../../common/values/value.js';
import { arg, badValue, stringArg } from './args.js';
import { codePointLength } from './code-points.js';
import { scalar, type ScalarFunction } from './definition.js';

/**
 * Trimming with a character string (btrim, ltrim and rtrim with a second argument, and the
 * `trim([LEADING | TRAILING | BOTH] [c] FROM s)` form), Unicode normalization (normalize() and the
 * `IS [NOT] [form] NORMALIZED` predicate) and the character counts char_length/character_length.
 * A null argument gives null.
 */

/** Whitespace as trim() without a character string removes it. */
const whitespace = /\s/u;

type TrimSide = 'LEADING' | 'TRAILING' | 'BOTH';

/**
 * `s` without the leading and/or trailing characters that occur in `chars` (any order, any count);
 * without `chars`, without whitespace. Works on code points, so a surrogate pair is one character.
 */
function trimSide(s: string, side: TrimSide, chars: string | undefined): string {
  const remove = chars === undefined ? (c: string) => whitespace.test(c) : (c: string) => chars.includes(c);
  const cs = Array.from(s);
  let start = 0;
  let end = cs.length;
  if (side !== 'TRAILING') while (start < end && remove(cs[start] as string)) start++;
  if (side !== 'LEADING') while (end > start && remove(cs[end - 1] as string)) end--;
  return cs.slice(start, end).join('');
}

/** `name(s [, chars])`: the one- and two-argument forms of btrim, ltrim and rtrim. */
const trimFn = (name: string, side: TrimSide): ScalarFunction =>
  scalar(name, 1, 2, (args) => {
    const s = arg(args, 0);
    const c = args.length > 1 ? arg(args, 1) : undefined;
    if (s === null || c === null) return null;
    return trimSide(stringArg(name, s), side, c === undefined ? undefined : stringArg(name, c));
  });

const NORMAL_FORMS = ['NFC', 'NFD', 'NFKC', 'NFKD'] as const;
export type NormalForm = (typeof NORMAL_FORMS)[number];

export function isNormalForm(word: string): word is NormalForm {
  return (NORMAL_FORMS as readonly string[]).includes(word.toUpperCase());
}

function normalFormArg(fn: string, v: Value): NormalForm {
  const form = stringArg(fn, v).toUpperCase();
  return isNormalForm(form) ? form : badValue(fn, `unknown normal form ${form}; one of ${NORMAL_FORMS.join(', ')}`);
}

export const trimNormalizeFunctions: readonly ScalarFunction[] = [
  trimFn('btrim', 'BOTH'),
  trimFn('ltrim', 'LEADING'),
  trimFn('rtrim', 'TRAILING'),
  /**
   * `trim(side [c] FROM s)` as the parser writes it: ('trim from', side, s [, c]). The character
   * string of this form is exactly one character.
   */
  scalar('trim from', 2, 3, (args) => {
    const side = stringArg('trim', arg(args, 0)) as TrimSide;
    const s = arg(args, 1);
    const c = args.length > 2 ? arg(args, 2) : undefined;
    if (s === null || c === null) return null;
    const chars = c === undefined ? undefined : stringArg('trim', c);
    if (chars !== undefined && codePointLength(chars) !== 1) badValue('trim', `the character to trim must be one character, got '${chars}'`);
    return trimSide(stringArg('trim', s), side, chars);
  }),
  scalar('normalize', 1, 2, (args) => {
    const s = arg(args, 0);
    const form = args.length > 1 ? arg(args, 1) : 'NFC';
    if (s === null || form === null) return null;
    return stringArg('normalize', s).normalize(normalFormArg('normalize', form));
  }),
  /**
   * `s IS [form] NORMALIZED` as the parser writes it: ('is normalized', s, form). Null for a value that
   * is not a STRING, as the manual has it (`RETURN 1 IS NORMALIZED` is null), rather than an error.
   */
  scalar('is normalized', 2, 2, (args) => {
    const s = arg(args, 0);
    if (typeof s !== 'string') return null;
    return s.normalize(normalFormArg('IS NORMALIZED', arg(args, 1))) === s;
  }),
  scalar('char_length', 1, 1, ([s = null]) => (s === null ? null : BigInt(codePointLength(stringArg('char_length', s))))),
  scalar('character_length', 1, 1, ([s = null]) => (s === null ? null : BigInt(codePointLength(stringArg('character_length', s))))),
];
