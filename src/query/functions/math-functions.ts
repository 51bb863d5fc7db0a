import { arithmeticError } from '../errors.js';
import { checkedInt } from '../values/arithmetic.js';
import { arg, badValue, numberArg, smallIntegerArg, stringArg, wrongType } from './args.js';
import { scalar, type ScalarFunction } from './definition.js';

/**
 * Mathematical functions. Null in, null out. Results are FLOAT except where Cypher keeps the integer:
 * `abs` and `sign` of an INTEGER.
 */

/** Java's Math.round read back as a FLOAT: ties towards positive infinity, and round(-0.4) is 0.0, not -0.0. */
const roundHalfTowardsInfinity = (x: number): number => Math.round(x) + 0;

const RADIANS_TO_DEGREES = 180 / Math.PI;
const DEGREES_TO_RADIANS = Math.PI / 180;

const floatFn = (name: string, f: (x: number) => number): ScalarFunction =>
  scalar(name, 1, 1, ([v = null]) => (v === null ? null : f(numberArg(name, v))));

const float2 = (name: string, f: (x: number, y: number) => number): ScalarFunction =>
  scalar(name, 2, 2, (args) => {
    const [a, b] = [arg(args, 0), arg(args, 1)];
    return a === null || b === null ? null : f(numberArg(name, a), numberArg(name, b));
  });

export const mathFunctions: readonly ScalarFunction[] = [
  scalar('abs', 1, 1, ([v = null]) => {
    if (v === null) return null;
    if (typeof v === 'bigint') return checkedInt(v < 0n ? -v : v);
    if (typeof v === 'number') return Math.abs(v);
    return wrongType('abs', 'a number', v);
  }),
  scalar('sign', 1, 1, ([v = null]) => {
    if (v === null) return null;
    if (typeof v === 'bigint') return v > 0n ? 1n : v < 0n ? -1n : 0n;
    if (typeof v === 'number') return v !== v ? 0n : v > 0 ? 1n : v < 0 ? -1n : 0n;
    return wrongType('sign', 'a number', v);
  }),
  floatFn('ceil', Math.ceil),
  floatFn('floor', Math.floor),
  scalar('round', 1, 3, (args) => {
    const v = arg(args, 0);
    if (v === null) return null;
    const x = numberArg('round', v);
    if (args.length === 1) return roundHalfTowardsInfinity(x);
    const p = arg(args, 1);
    if (p === null) return null;
    const precision = smallIntegerArg('round', p);
    // Without a mode, ties round away from zero (HALF_UP), except at precision 0, where they round
    // towards positive infinity as round(x) does: the manual's round(-1.5, 0) is -1.0.
    if (args.length === 2 && precision === 0) return roundHalfTowardsInfinity(x);
    let mode: RoundingMode = 'HALF_UP';
    if (args.length > 2) {
      const m = arg(args, 2);
      if (m === null) return null;
      const name = stringArg('round', m).toUpperCase();
      if (!(ROUNDING_MODES as readonly string[]).includes(name)) badValue('round', `unknown rounding mode '${name}'`);
      mode = name as RoundingMode;
    }
    return roundDecimal(x, precision, mode);
  }),
  floatFn('sqrt', Math.sqrt),
  floatFn('exp', Math.exp),
  floatFn('log', Math.log),
  floatFn('log10', Math.log10),
  floatFn('sin', Math.sin),
  floatFn('cos', Math.cos),
  floatFn('tan', Math.tan),
  floatFn('cot', (x) => 1 / Math.tan(x)),
  floatFn('asin', Math.asin),
  floatFn('acos', Math.acos),
  floatFn('atan', Math.atan),
  float2('atan2', Math.atan2),
  // One multiplication by the rounded factor, as Java's Math.toDegrees/toRadians do: dividing by pi
  // after multiplying can differ in the last digit (degrees(3.14159) is 179.9998479605043 in Neo4j).
  floatFn('degrees', (x) => x * RADIANS_TO_DEGREES),
  floatFn('radians', (x) => x * DEGREES_TO_RADIANS),
  floatFn('haversin', (x) => (1 - Math.cos(x)) / 2),
  floatFn('cosh', Math.cosh),
  floatFn('sinh', Math.sinh),
  floatFn('tanh', Math.tanh),
  // coth(0) is an infinity of the sign of the zero, as 1 / tanh(±0) gives.
  floatFn('coth', (x) => 1 / Math.tanh(x)),
  scalar('isnan', 1, 1, ([v = null]) => (v === null ? null : typeof v === 'bigint' ? false : Number.isNaN(numberArg('isNaN', v)))),
  scalar('pi', 0, 0, () => Math.PI),
  scalar('e', 0, 0, () => Math.E),
  scalar('rand', 0, 0, (_args, ctx) => ctx.random(), { deterministic: false }),
  scalar('randomuuid', 0, 0, (_args, ctx) => randomUuid(() => ctx.random()), { deterministic: false }),
];

/** A version 4 UUID (RFC 9562) in its 36-character text form, from 16 random bytes of `random`. */
export function randomUuid(random: () => number): string {
  const bytes = new Uint8Array(16);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const ROUNDING_MODES = ['UP', 'DOWN', 'CEILING', 'FLOOR', 'HALF_UP', 'HALF_DOWN', 'HALF_EVEN', 'UNNECESSARY'] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];

/**
 * Rounds `x` to `precision` decimal places in the decimal value its shortest text denotes (so 2.675
 * rounds as the decimal 2.675, not as the binary double just below it), with java.math.RoundingMode
 * semantics.
 */
export function roundDecimal(x: number, precision: number, mode: RoundingMode): number {
  if (!Number.isFinite(x)) return x;
  const { digits, exponent, negative } = decimalOf(x);
  // value = digits * 10^exponent; keep `precision` fraction digits.
  const shift = exponent + precision;
  let kept: bigint;
  let remainder: bigint;
  let divisor: bigint;
  if (shift >= 0) {
    kept = digits * 10n ** BigInt(shift);
    remainder = 0n;
    divisor = 1n;
  } else {
    divisor = 10n ** BigInt(-shift);
    kept = digits / divisor;
    remainder = digits % divisor;
  }
  if (remainder !== 0n && roundsAway(mode, negative, kept, remainder * 2n, divisor)) kept += 1n;
  const text = `${negative ? '-' : ''}${kept}e${-precision}`;
  return Number(text);
}

function roundsAway(mode: RoundingMode, negative: boolean, kept: bigint, twiceRemainder: bigint, divisor: bigint): boolean {
  switch (mode) {
    case 'UP':
      return true;
    case 'DOWN':
      return false;
    case 'CEILING':
      return !negative;
    case 'FLOOR':
      return negative;
    case 'HALF_UP':
      return twiceRemainder >= divisor;
    case 'HALF_DOWN':
      return twiceRemainder > divisor;
    case 'HALF_EVEN':
      return twiceRemainder > divisor || (twiceRemainder === divisor && kept % 2n === 1n);
    case 'UNNECESSARY':
      // Asserts the value already has at most `precision` decimals; only called when a digit is dropped.
      throw arithmeticError('InvalidArgumentValue', 'round(): rounding necessary with rounding mode UNNECESSARY');
  }
}

function decimalOf(x: number): { digits: bigint; exponent: number; negative: boolean } {
  const negative = x < 0 || Object.is(x, -0);
  const [mantissa = '0', exp = '0'] = Math.abs(x).toExponential().split('e');
  const [int = '0', frac = ''] = mantissa.split('.');
  return { digits: BigInt(int + frac), exponent: Number(exp) - frac.length, negative };
}

