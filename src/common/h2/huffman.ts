/**
 * HPACK's Huffman code (RFC 7541 section 5.2 and Appendix B). The code is canonical: codes are
 * assigned in order of length, then symbol, so the code lengths alone define it and the codes are
 * built from them here. Decoding walks a tree of 4-bit steps; the padding rules (at most 7 bits,
 * all ones, no EOS) are checked at the end.
 */
import { H2ConnectionError, h2_error } from './errors.js';

/** Code length in bits of each symbol 0..255, then EOS (256): the RFC's table, column "len". */
const code_bits: readonly number[] = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
  28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
  5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
  6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
  24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
  21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
  26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30,
];

const eos = 256;

/** Canonical code assignment: shorter codes first, ties by symbol. */
function canonicalCodes(): number[] {
  const symbols = code_bits.map((_, s) => s).sort((a, b) => code_bits[a]! - code_bits[b]! || a - b);
  const codes = new Array<number>(code_bits.length).fill(0);
  let code = 0;
  let bits = code_bits[symbols[0]!]!;
  for (const s of symbols) {
    const len = code_bits[s]!;
    code *= 2 ** (len - bits);
    bits = len;
    codes[s] = code;
    code += 1;
  }
  return codes;
}

/** Each symbol's code, right-aligned in `code_bits[s]` bits. */
export const huffman_codes: readonly number[] = canonicalCodes();
export const huffman_code_bits: readonly number[] = code_bits;

/**
 * The decoding tree, walked 4 bits at a time. Node n's 16 transitions are at n*16 .. n*16+15, each
 * packing: next node (bits 0-15), emitted symbol + 1 (bits 16-24, 0 for none), and flags:
 * bit 25 "the walk may stop here" (the bits since the last symbol are all ones, under 8: padding) and
 * bit 26 "failure" (EOS decoded or no such code).
 */
const accept_flag = 1 << 25;
const fail_flag = 1 << 26;

interface Node {
  children: [Node | number | undefined, Node | number | undefined];
  id: number;
}

function buildTable(): Uint32Array {
  // A binary tree of the codes; leaves hold symbols.
  const nodes: Node[] = [];
  const root: Node = { children: [undefined, undefined], id: 0 };
  nodes.push(root);
  for (let s = 0; s <= eos; s++) {
    let node = root;
    const len = code_bits[s]!;
    const code = huffman_codes[s]!;
    for (let i = len - 1; i >= 0; i--) {
      const bit = Math.floor(code / 2 ** i) % 2;
      if (i === 0) node.children[bit] = s;
      else {
        let next = node.children[bit];
        if (next === undefined || typeof next === 'number') {
          next = { children: [undefined, undefined], id: nodes.length };
          nodes.push(next);
          node.children[bit] = next;
        }
        node = next;
      }
    }
  }
  // A node is a valid stopping point when its path from the root is all ones and under 8 bits deep:
  // that path is then a prefix of EOS used as padding.
  const padding_ok = new Set<number>([0]);
  let walk: Node = root;
  for (let depth = 1; depth < 8; depth++) {
    const next = walk.children[1];
    if (next === undefined || typeof next === 'number') break;
    padding_ok.add(next.id);
    walk = next;
  }
  const table = new Uint32Array(nodes.length * 16);
  for (const start of nodes) {
    for (let nibble = 0; nibble < 16; nibble++) {
      let node: Node = start;
      let emitted = 0;
      let failed = false;
      for (let i = 3; i >= 0 && !failed; i--) {
        const next: Node | number | undefined = node.children[(nibble >> i) & 1];
        if (next === undefined || next === eos) failed = true;
        else if (typeof next === 'number') {
          emitted = next + 1;
          node = root;
        } else node = next;
      }
      let entry = failed ? fail_flag : node.id | (emitted << 16);
      if (!failed && padding_ok.has(node.id)) entry |= accept_flag;
      table[start.id * 16 + nibble] = entry;
    }
  }
  return table;
}

const decode_table = buildTable();

function huffmanError(message: string): H2ConnectionError {
  return new H2ConnectionError(h2_error.COMPRESSION_ERROR, message);
}

/**
 * Decodes Huffman-coded bytes to a latin1 string. Each 4-bit step emits at most one symbol: every
 * code is at least 5 bits long.
 */
export function huffmanDecode(src: Uint8Array, start: number, end: number): string {
  const out = Buffer.allocUnsafe(Math.ceil(((end - start) * 8) / 5));
  let n = 0;
  let state = 0;
  let accept = true;
  for (let i = start; i < end; i++) {
    const byte = src[i]!;
    for (const nibble of [byte >> 4, byte & 0x0f]) {
      const entry = decode_table[state * 16 + nibble]!;
      if ((entry & fail_flag) !== 0) throw huffmanError('a Huffman-coded string holds EOS or an invalid code');
      const symbol = (entry >> 16) & 0x1ff;
      if (symbol !== 0) out[n++] = symbol - 1;
      state = entry & 0xffff;
      accept = (entry & accept_flag) !== 0;
    }
  }
  if (!accept) throw huffmanError('a Huffman-coded string ends in padding that is not a prefix of EOS under 8 bits');
  return out.toString('latin1', 0, n);
}

/** The length in bytes of `text` (latin1) Huffman-coded. */
export function huffmanLength(text: string): number {
  let bits = 0;
  for (let i = 0; i < text.length; i++) bits += code_bits[text.charCodeAt(i) & 0xff]!;
  return Math.ceil(bits / 8);
}

/** Writes `text` (latin1) Huffman-coded into `out` at `at`, padded with ones; returns the end. */
export function huffmanEncodeInto(text: string, out: Uint8Array, at: number): number {
  let acc = 0;
  let acc_bits = 0;
  for (let i = 0; i < text.length; i++) {
    const s = text.charCodeAt(i) & 0xff;
    const len = code_bits[s]!;
    let code = huffman_codes[s]!;
    let remaining = len;
    // Codes reach 30 bits: fed in pieces of at most 16 so the accumulator stays a safe integer in 32 bits.
    while (remaining > 0) {
      const take = Math.min(remaining, 16);
      const piece = Math.floor(code / 2 ** (remaining - take)) & ((1 << take) - 1);
      acc = (acc << take) | piece;
      acc_bits += take;
      remaining -= take;
      code = code % 2 ** remaining;
      while (acc_bits >= 8) {
        acc_bits -= 8;
        out[at++] = (acc >>> acc_bits) & 0xff;
      }
      acc &= (1 << acc_bits) - 1;
    }
  }
  if (acc_bits > 0) out[at++] = ((acc << (8 - acc_bits)) | ((1 << (8 - acc_bits)) - 1)) & 0xff;
  return at;
}
