import { describe, expect, it } from 'vitest';
import { H2ConnectionError } from '../../../src/common/h2/errors.js';
import { HpackDecoder } from '../../../src/common/h2/hpack-decoder.js';
import { HpackEncoder } from '../../../src/common/h2/hpack-encoder.js';
import { huffmanDecode, huffmanEncodeInto, huffmanLength } from '../../../src/common/h2/huffman.js';

type Pairs = [string, string][];

/** RFC 7541 Appendix C: each block decoded in order on one decoder, with the table size after it. */
const appendix_c: { id: string; hex: string; table_bytes: number; fields: Pairs }[] = [
  { id: 'C.2.1', hex: '400a637573746f6d2d6b65790d637573746f6d2d686561646572', table_bytes: 55, fields: [['custom-key', 'custom-header']] },
  { id: 'C.2.2', hex: '040c2f73616d706c652f70617468', table_bytes: 0, fields: [[':path', '/sample/path']] },
  { id: 'C.2.3', hex: '100870617373776f726406736563726574', table_bytes: 0, fields: [['password', 'secret']] },
  { id: 'C.2.4', hex: '82', table_bytes: 0, fields: [[':method', 'GET']] },
  { id: 'C.3.1', hex: '828684410f7777772e6578616d706c652e636f6d', table_bytes: 57, fields: [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com']] },
  { id: 'C.3.2', hex: '828684be58086e6f2d6361636865', table_bytes: 110, fields: [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com'], ['cache-control', 'no-cache']] },
  { id: 'C.3.3', hex: '828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565', table_bytes: 164, fields: [[':method', 'GET'], [':scheme', 'https'], [':path', '/index.html'], [':authority', 'www.example.com'], ['custom-key', 'custom-value']] },
  { id: 'C.4.1', hex: '828684418cf1e3c2e5f23a6ba0ab90f4ff', table_bytes: 57, fields: [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com']] },
  { id: 'C.4.2', hex: '828684be5886a8eb10649cbf', table_bytes: 110, fields: [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com'], ['cache-control', 'no-cache']] },
  { id: 'C.4.3', hex: '828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf', table_bytes: 164, fields: [[':method', 'GET'], [':scheme', 'https'], [':path', '/index.html'], [':authority', 'www.example.com'], ['custom-key', 'custom-value']] },
  { id: 'C.5.1', hex: '4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a323120474d546e1768747470733a2f2f7777772e6578616d706c652e636f6d', table_bytes: 222, fields: [[':status', '302'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['location', 'https://www.example.com']] },
  { id: 'C.5.2', hex: '4803333037c1c0bf', table_bytes: 222, fields: [[':status', '307'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['location', 'https://www.example.com']] },
  { id: 'C.5.3', hex: '88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c05a04677a69707738666f6f3d4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d6167653d333630303b2076657273696f6e3d31', table_bytes: 215, fields: [[':status', '200'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'], ['location', 'https://www.example.com'], ['content-encoding', 'gzip'], ['set-cookie', 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1']] },
  { id: 'C.6.1', hex: '488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c78f0b97c8e9ae82ae43d3', table_bytes: 222, fields: [[':status', '302'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['location', 'https://www.example.com']] },
  { id: 'C.6.2', hex: '4883640effc1c0bf', table_bytes: 222, fields: [[':status', '307'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['location', 'https://www.example.com']] },
  { id: 'C.6.3', hex: '88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007', table_bytes: 215, fields: [[':status', '200'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'], ['location', 'https://www.example.com'], ['content-encoding', 'gzip'], ['set-cookie', 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1']] },
];

function decodeAll(decoder: HpackDecoder, block: Buffer): Pairs {
  const out: Pairs = [];
  decoder.decode(block, (n, v) => out.push([n, v]));
  return out;
}

describe('HPACK: the RFC 7541 Appendix C examples', () => {
  it('every block of C.2 to C.6 decodes to its fields, and the dynamic table has the size the RFC gives', () => {
    let decoder = new HpackDecoder(4096, 1 << 20);
    for (const example of appendix_c) {
      // Each example sequence starts on a fresh connection; C.5 and C.6 use a 256-byte table.
      if (example.id.startsWith('C.2') || example.id.endsWith('.1')) decoder = new HpackDecoder(example.id >= 'C.5' ? 256 : 4096, 1 << 20);
      expect(decodeAll(decoder, Buffer.from(example.hex, 'hex')), example.id).toEqual(example.fields);
      expect(decoder.table_bytes, example.id).toBe(example.table_bytes);
    }
  });

  it('Huffman: the C.4 and C.6 strings encode to the RFC\'s bytes and back', () => {
    for (const [text, hex] of [
      ['www.example.com', 'f1e3c2e5f23a6ba0ab90f4ff'],
      ['no-cache', 'a8eb10649cbf'],
      ['custom-key', '25a849e95ba97d7f'],
      ['custom-value', '25a849e95bb8e8b4bf'],
      ['302', '6402'],
      ['private', 'aec3771a4b'],
      ['https://www.example.com', '9d29ad171863c78f0b97c8e9ae82ae43d3'],
    ] as const) {
      const out = Buffer.alloc(huffmanLength(text));
      expect(huffmanEncodeInto(text, out, 0)).toBe(out.length);
      expect(out.toString('hex'), text).toBe(hex);
      expect(huffmanDecode(Buffer.from(hex, 'hex'), 0, hex.length / 2)).toBe(text);
    }
  });

  it('Huffman: every byte value round-trips, including the 30-bit codes', () => {
    const all = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('');
    const out = Buffer.alloc(huffmanLength(all));
    huffmanEncodeInto(all, out, 0);
    expect(huffmanDecode(out, 0, out.length)).toBe(all);
  });

  it('Huffman: padding longer than 7 bits, or not all ones, is a COMPRESSION_ERROR', () => {
    // 'a' is 00011 (5 bits); 0x1f pads it with three ones, which is right.
    expect(huffmanDecode(Buffer.from([0x1f]), 0, 1)).toBe('a');
    expect(() => huffmanDecode(Buffer.from([0x18]), 0, 1)).toThrow(H2ConnectionError);
    expect(() => huffmanDecode(Buffer.from([0x1f, 0xff]), 0, 2)).toThrow(H2ConnectionError);
    expect(() => huffmanDecode(Buffer.from([0xff, 0xff, 0xff, 0xff]), 0, 4)).toThrow(H2ConnectionError);
  });
});

describe('HPACK: our encoder against our decoder and the RFC\'s rules', () => {
  it('a gRPC response\'s headers and trailers: the repeated ones shrink to one byte each after the first call', () => {
    const encoder = new HpackEncoder();
    const decoder = new HpackDecoder(4096, 1 << 20);
    const headers = { ':status': 200, 'content-type': 'application/grpc+proto', 'grpc-accept-encoding': 'identity,gzip' };
    const trailers = { 'grpc-status': '0' };
    const first = encoder.encode(headers);
    const again = encoder.encode(headers);
    expect(again.length).toBe(3);
    expect(again.length).toBeLessThan(first.length);
    const t1 = encoder.encode(trailers);
    const t2 = encoder.encode(trailers);
    expect(t2.length).toBe(1);
    for (const block of [first, again]) {
      expect(decodeAll(decoder, block)).toEqual([[':status', '200'], ['content-type', 'application/grpc+proto'], ['grpc-accept-encoding', 'identity,gzip']]);
    }
    expect(decodeAll(decoder, t1)).toEqual([['grpc-status', '0']]);
    expect(decodeAll(decoder, t2)).toEqual([['grpc-status', '0']]);
  });

  it('pseudo-headers go first, arrays become repeated fields, and a lowered table limit is announced', () => {
    const encoder = new HpackEncoder();
    const decoder = new HpackDecoder(4096, 1 << 20);
    const block = encoder.encode({ 'x-a': ['1', '2'], ':path': '/p', 'grpc-timeout': '10m' });
    expect(decodeAll(decoder, block)).toEqual([[':path', '/p'], ['x-a', '1'], ['x-a', '2'], ['grpc-timeout', '10m']]);
    encoder.setTableLimit(0);
    const after = encoder.encode({ ':path': '/p' });
    expect(after[0]).toBe(0x20);
    expect(decodeAll(decoder, after)).toEqual([[':path', '/p']]);
    expect(decoder.table_bytes).toBe(0);
  });

  it('the dynamic table evicts oldest first, and the encoder never points at an evicted entry', () => {
    const encoder = new HpackEncoder(4096);
    const decoder = new HpackDecoder(4096, 1 << 20);
    for (let i = 0; i < 500; i++) {
      const headers = { ':path': `/svc/Method${i % 97}`, 'user-agent': `agent-${i % 13}`, te: 'trailers' };
      expect(decodeAll(decoder, encoder.encode(headers))).toEqual(Object.entries(headers));
    }
  });

  it('malformed blocks: bad index, truncated string or integer, late size update, oversized list', () => {
    const fresh = (): HpackDecoder => new HpackDecoder(4096, 1024);
    for (const hex of ['80', 'c0', '41', '410f77', '3fe1', '82' + '3f', 'ff80808080808080']) {
      expect(() => decodeAll(fresh(), Buffer.from(hex, 'hex')), hex).toThrow(H2ConnectionError);
    }
    const big = new HpackEncoder().encode({ 'x-big': 'v'.repeat(2000) });
    expect(() => decodeAll(fresh(), big)).toThrow(H2ConnectionError);
  });
});
