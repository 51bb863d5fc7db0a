import type { Span } from '../ast/span.js';
import type { CypherError } from '../errors.js';

/** The 64-bit signed range every Cypher integer lives in. */
export const int64_max = (1n << 63n) - 1n;
export const int64_min = -(1n << 63n);

export type LiteralError = (detail: string, message: string, span: Span) => CypherError;

/**
 * The magnitude of an integer literal token (decimal, 0x hexadecimal or 0o octal), before any sign.
 * A 0x/0o token swallows every letter and digit after its prefix (see the grammar), so a wrong digit
 * is reported here as InvalidNumberLiteral instead of surfacing as a stray identifier.
 */
export function integerMagnitude(text: string, span: Span, fail: LiteralError): bigint {
  const prefix = text.slice(0, 2).toLowerCase();
  if (prefix === '0x' || prefix === '0o') {
    const digits = text.slice(2);
    const valid = prefix === '0x' ? /^[0-9a-fA-F]+$/ : /^[0-7]+$/;
    if (!valid.test(digits)) {
      const kind = prefix === '0x' ? 'hexadecimal' : 'octal';
      throw fail('InvalidNumberLiteral', `invalid ${kind} integer literal '${text}'`, span);
    }
    return BigInt(prefix + digits);
  }
  if (text.length > 1 && text.startsWith('0')) {
    throw fail(
      'InvalidNumberLiteral',
      `invalid integer literal '${text}': a leading zero is not allowed (octal is written 0o...)`,
      span,
    );
  }
  return BigInt(text);
}

/** Applies the sign and checks the 64-bit range; `-9223372036854775808` is valid, its magnitude alone is not. */
export function signedInteger(magnitude: bigint, negative: boolean, text: string, span: Span, fail: LiteralError): bigint {
  const value = negative ? -magnitude : magnitude;
  if (value > int64_max || value < int64_min) {
    throw fail('IntegerOverflow', `integer literal '${negative ? '-' : ''}${text}' does not fit in 64 bits`, span);
  }
  return value;
}

export function floatValue(text: string, span: Span, fail: LiteralError): number {
  const value = Number(text);
  if (!Number.isFinite(value)) {
    throw fail('FloatingPointOverflow', `float literal '${text}' is too large for a 64-bit float`, span);
  }
  return value;
}

const simple_escapes: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * Decodes a quoted string literal token. Escapes follow openCypher: \\ \' \" \b \f \n \r \t (letters
 * in either case), \uXXXX and \UXXXXXXXX. A malformed or out-of-range \u is InvalidUnicodeLiteral.
 */
export function stringValue(token: string, span: Span, fail: LiteralError): string {
  const body = token.slice(1, -1);
  if (!body.includes('\\')) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[i + 1] ?? '';
    const simple = simple_escapes[e.toLowerCase()] ?? simple_escapes[e];
    if (simple !== undefined && e !== 'u' && e !== 'U') {
      out += simple;
      i += 1;
      continue;
    }
    if (e === 'u' || e === 'U') {
      const long = /^[0-9a-fA-F]{8}/.exec(body.slice(i + 2));
      const short = /^[0-9a-fA-F]{4}/.exec(body.slice(i + 2));
      const digits = e === 'U' && long ? long[0] : short?.[0];
      if (digits === undefined) {
        throw fail('InvalidUnicodeLiteral', `invalid unicode escape '${body.slice(i, i + 6)}' in string literal`, span);
      }
      const code = parseInt(digits, 16);
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff && digits.length === 8)) {
        throw fail('InvalidUnicodeLiteral', `unicode escape '\\${e}${digits}' is not a valid code point`, span);
      }
      out += String.fromCodePoint(code);
      i += 1 + digits.length;
      continue;
    }
    throw fail('UnexpectedSyntax', `invalid escape sequence '\\${e}' in string literal`, span);
  }
  return out;
}

/**
 * The name of an escaped identifier: backticks removed, a doubled backtick is one backtick, and `\uxxxx`
 * (four hex digits) is that UTF-16 code unit, as the Neo4j 5 manual's naming rules allow in backticks.
 */
export function escapedName(token: string): string {
  return token
    .slice(1, -1)
    .replace(/``/g, '`')
    .replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
