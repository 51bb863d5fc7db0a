import { IntegerIds } from './integer-ids.js';

/**
 * An ID space of text ids (`--id-type string`, the default). Ids are matched as text, but text ids
 * are most often decimal numbers; those written in canonical form ("0", "17", not "017", "+17" or
 * " 17") name exactly one number and back, so they are kept in an IntegerIds table, read from the
 * bytes without making a string, and only other text goes to a Map. "17" and "017" stay different
 * ids, as text.
 */
export class TextIds {
  private readonly numeric = new IntegerIds();
  private readonly other = new Map<string, number>();

  get(text: string): number | undefined {
    const n = canonicalInteger(text);
    return Number.isNaN(n) ? this.other.get(text) : this.numeric.get(n);
  }

  /** The node of the id whose text is the canonical form of `n` (see canonicalInteger). */
  getCanonical(n: number): number | undefined {
    return this.numeric.get(n);
  }

  /** Maps `text` to `node`; `text` must not be mapped yet. */
  set(text: string, node: number): void {
    const n = canonicalInteger(text);
    if (Number.isNaN(n)) this.other.set(text, node);
    else this.numeric.set(n, node);
  }
}

/** Canonical decimal integers have at most this many digits: all of them are exact doubles. */
export const canonical_digits_max = 15;

/** `text` as a number when it is a canonical decimal integer (digits, no leading zero but "0" itself), else NaN. */
export function canonicalInteger(text: string): number {
  const length = text.length;
  if (length === 0 || length > canonical_digits_max || (length > 1 && text.charCodeAt(0) === 0x30)) return Number.NaN;
  let v = 0;
  for (let i = 0; i < length; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return Number.NaN;
    v = v * 10 + d;
  }
  return v;
}
