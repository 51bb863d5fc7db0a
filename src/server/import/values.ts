import type { PropertyValue } from '../../common/property-value.js';
import { isStorableProperty } from '../../common/values/storable.js';
import {
  parseDate,
  parseDateTime,
  parseDuration,
  parseLocalDateTime,
  parseLocalTime,
  parseTime,
} from '../../common/values/temporal-parse.js';
import type { ScalarKind } from './header.js';
import { parsePointText } from './point-text.js';

/**
 * A CSV field as a Weft value (docs/values.md): int is INTEGER (bigint, 64-bit), float is FLOAT,
 * boolean is `true` or `false` (any case), temporal types take the text Cypher's functions accept
 * (a time without an offset is UTC), a point its map text (`{latitude: 55.6, longitude: 13.0}`). An array splits on the array delimiter, every element of the
 * column's type. The answer is the value, or a string saying why the field is not one.
 */
export type Converted = { readonly ok: true; readonly value: PropertyValue } | { readonly ok: false; readonly reason: string };

const int64_min = -(2n ** 63n);
const int64_max = 2n ** 63n - 1n;
const INT = /^[+-]?\d+$/;
const utc = { offsetSeconds: 0 };

export function convert(text: string, scalar: ScalarKind, array: boolean, arrayDelimiter: string): Converted {
  if (!array) {
    const v = convertScalar(text, scalar);
    return v === undefined ? { ok: false, reason: `'${clip(text)}' is not a${scalar === 'int' ? 'n' : ''} ${scalar}` } : { ok: true, value: v };
  }
  if (text === '') return { ok: true, value: [] };
  const out: PropertyValue[] = [];
  for (const part of text.split(arrayDelimiter)) {
    const v = convertScalar(part, scalar);
    if (v === undefined) return { ok: false, reason: `array element '${clip(part)}' is not a${scalar === 'int' ? 'n' : ''} ${scalar}` };
    out.push(v);
  }
  // A property's points share one CRS (docs/values.md).
  if (!isStorableProperty(out)) return { ok: false, reason: `the array '${clip(text)}' mixes points of different CRSs` };
  return { ok: true, value: out as PropertyValue };
}

function convertScalar(text: string, scalar: ScalarKind): PropertyValue | undefined {
  switch (scalar) {
    case 'string':
      return text;
    case 'int': {
      const t = text.trim();
      if (!INT.test(t)) return undefined;
      const v = BigInt(t);
      return v < int64_min || v > int64_max ? undefined : v;
    }
    case 'float': {
      const t = text.trim();
      if (t === '') return undefined;
      const v = Number(t);
      return Number.isNaN(v) && t.toLowerCase() !== 'nan' ? undefined : v;
    }
    case 'boolean': {
      const t = text.trim().toLowerCase();
      return t === 'true' ? true : t === 'false' ? false : undefined;
    }
    case 'date':
      return parseDate(text);
    case 'localtime':
      return parseLocalTime(text);
    case 'time':
      return parseTime(text, utc, 0);
    case 'localdatetime':
      return parseLocalDateTime(text);
    case 'datetime':
      return parseDateTime(text, utc);
    case 'duration':
      return parseDuration(text);
    case 'point':
      return parsePointText(text);
  }
}

/** Long fields are shortened in reasons, so a report line stays readable. */
function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}
