import { assert } from '../../common/assert.js';

/**
 * The typed columns of a bulk_load entry travel as bytes (MessagePack bin) in little-endian order.
 * Typed arrays use the platform's order, so this module refuses to load on a big-endian platform
 * rather than misread a log.
 */
assert(new Uint8Array(new Uint16Array([1]).buffer)[0] === 1, 'bulk columns assume a little-endian platform');

/** The bytes of a typed array, without copying. */
export function bytesOf(a: Uint32Array | Float64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** A u32 column read back; copied only when the bytes are not 4-aligned (a slice of a larger buffer). */
export function u32Column(bytes: Uint8Array): Uint32Array {
  assert(bytes.byteLength % 4 === 0, `a u32 column of ${bytes.byteLength} bytes`);
  if (bytes.byteOffset % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  return new Uint32Array(bytes.slice().buffer);
}

/** An f64 column read back; copied only when the bytes are not 8-aligned. */
export function f64Column(bytes: Uint8Array): Float64Array {
  assert(bytes.byteLength % 8 === 0, `an f64 column of ${bytes.byteLength} bytes`);
  if (bytes.byteOffset % 8 === 0) return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
  return new Float64Array(bytes.slice().buffer);
}
