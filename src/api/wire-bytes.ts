/**
 * An encoded message as the Buffer grpc-js wants, sharing the encoder's memory: `Buffer.from(u8)`
 * would copy it, which for 256 KiB blob chunks costs as much as encoding them.
 */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
