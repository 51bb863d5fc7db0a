import type { Value } from '../../common/values/value.js';
import { arg, badValue, listArg, smallIntegerArg, stringArg, wrongType } from './args.js';
import { codePointLength, codePointSlice } from './code-points.js';
import { scalar, type ScalarFunction } from './definition.js';

/**
 * String functions. A null string gives null; a null position or length is an error (it has no
 * meaningful default). Positions and lengths count characters (code points), see code-points.ts.
 */

const stringFn = (name: string, f: (s: string) => Value): ScalarFunction =>
  scalar(name, 1, 1, ([v = null]) => (v === null ? null : f(stringArg(name, v))));

const trimmed = /^\s+|\s+$/g;

export const stringFunctions: readonly ScalarFunction[] = [
  /** `a || b` as the parser writes it: two strings or two lists joined; null when either is null. */
  scalar('||', 2, 2, (args) => {
    const [a, b] = [arg(args, 0), arg(args, 1)];
    if (a === null || b === null) return null;
    if (typeof a === 'string') return a + stringArg('||', b);
    if (Array.isArray(a)) return [...(a as readonly Value[]), ...listArg('||', b)];
    return wrongType('||', 'a STRING or a LIST', a);
  }),
  stringFn('toupper', (s) => s.toUpperCase()),
  stringFn('upper', (s) => s.toUpperCase()),
  stringFn('tolower', (s) => s.toLowerCase()),
  stringFn('lower', (s) => s.toLowerCase()),
  stringFn('trim', (s) => s.replace(trimmed, '')),
  scalar('replace', 3, 3, (args) => {
    const [o, f, r] = [arg(args, 0), arg(args, 1), arg(args, 2)];
    if (o === null || f === null || r === null) return null;
    // A function replacer keeps `$&` and friends literal; an empty search inserts around every unit.
    const replacement = stringArg('replace', r);
    return stringArg('replace', o).replaceAll(stringArg('replace', f), () => replacement);
  }),
  scalar('substring', 2, 3, (args) => {
    const o = arg(args, 0);
    const st = arg(args, 1);
    const len = args.length > 2 ? arg(args, 2) : undefined;
    if (o === null) return null;
    if (st === null) return badValue('substring', 'start must not be null');
    if (len === null) return badValue('substring', 'length must not be null');
    const s = stringArg('substring', o);
    const start = smallIntegerArg('substring', st);
    if (start < 0) badValue('substring', 'start must not be negative', 'NumberOutOfRange');
    if (len === undefined) return codePointSlice(s, start);
    const n = smallIntegerArg('substring', len);
    if (n < 0) badValue('substring', 'length must not be negative', 'NumberOutOfRange');
    return codePointSlice(s, start, start + n);
  }),
  scalar('left', 2, 2, (args) => {
    const [o, l] = [arg(args, 0), arg(args, 1)];
    if (o === null) return null;
    if (l === null) return badValue('left', 'length must not be null');
    const n = smallIntegerArg('left', l);
    if (n < 0) badValue('left', 'length must not be negative', 'NumberOutOfRange');
    return codePointSlice(stringArg('left', o), 0, n);
  }),
  scalar('right', 2, 2, (args) => {
    const [o, l] = [arg(args, 0), arg(args, 1)];
    if (o === null) return null;
    if (l === null) return badValue('right', 'length must not be null');
    const n = smallIntegerArg('right', l);
    if (n < 0) badValue('right', 'length must not be negative', 'NumberOutOfRange');
    const s = stringArg('right', o);
    const length = codePointLength(s);
    return n >= length ? s : codePointSlice(s, length - n);
  }),
  scalar('split', 2, 2, (args) => {
    const [o, d] = [arg(args, 0), arg(args, 1)];
    if (o === null || d === null) return null;
    const s = stringArg('split', o);
    const delimiters = Array.isArray(d) ? (d as readonly Value[]).map((x) => stringArg('split', x)) : [stringArg('split', d)];
    return splitAll(s, delimiters);
  }),
];

/** Splits on any of the delimiters; an empty delimiter splits into characters. */
function splitAll(s: string, delimiters: readonly string[]): string[] {
  if (delimiters.length === 1) {
    const d = delimiters[0] as string;
    return d === '' ? [...s] : s.split(d);
  }
  const out: string[] = [];
  let start = 0;
  let i = 0;
  outer: while (i < s.length) {
    for (const d of delimiters) {
      if (d !== '' && s.startsWith(d, i)) {
        out.push(s.slice(start, i));
        i += d.length;
        start = i;
        continue outer;
      }
    }
    i++;
  }
  out.push(s.slice(start));
  return out;
}


