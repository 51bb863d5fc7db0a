import { invalidArgument } from './errors.js';

/**
 * Element ids: the canonical opaque form of a node id (SPEC 2.2), 13 characters of Crockford base32
 * holding the 64-bit id, most significant first. Only the canonical spelling decodes, so encoding and
 * decoding are each other's inverse.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, BigInt(i)]));
export const ELEMENT_ID_LENGTH = 13;

export function encodeElementId(id: number | bigint): string {
  let n = BigInt(id);
  let out = '';
  for (let i = 0; i < ELEMENT_ID_LENGTH; i++) {
    out = ALPHABET[Number(n & 31n)]! + out;
    n >>= 5n;
  }
  return out;
}

/** The id an element id names, or undefined when the text is not a canonical element id. */
export function decodeElementId(text: string): bigint | undefined {
  if (text.length !== ELEMENT_ID_LENGTH) return undefined;
  let n = 0n;
  for (const c of text) {
    const v = VALUE.get(c);
    if (v === undefined) return undefined;
    n = (n << 5n) | v;
  }
  // 13 characters carry 65 bits; the top one must be clear for a 64-bit id.
  return n >> 64n === 0n ? n : undefined;
}

export function parseElementId(text: string): bigint {
  const id = decodeElementId(text);
  if (id === undefined) throw invalidArgument(`'${text}' is not an element id (13 characters of Crockford base32)`);
  return id;
}

/**
 * An edge's element id (SPEC 2.2): built from its endpoints' element ids, with the edge id appended
 * so two edges between the same nodes differ: `<source>-<target>-<edge id in base32>`.
 */
export function edgeElementId(edge: { readonly id: number; readonly source: number; readonly target: number }): string {
  return `${encodeElementId(edge.source)}-${encodeElementId(edge.target)}-${encodeElementId(edge.id)}`;
}
