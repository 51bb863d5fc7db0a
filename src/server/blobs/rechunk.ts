/**
 * Blob chunking (SPEC 4.4, 8): the bytes of an upload, however the client framed them, are cut at
 * fixed 256 KiB boundaries, so the same content always gives the same chunks, the same chunk ids
 * and the same blob id. At most one chunk is held here at a time.
 */
export const blob_chunk_bytes = 256 * 1024;

export async function* fixedChunks(source: AsyncIterable<Uint8Array>, chunk_bytes = blob_chunk_bytes): AsyncGenerator<Buffer, void, undefined> {
  let buffer = Buffer.allocUnsafe(chunk_bytes);
  let filled = 0;
  for await (const piece of source) {
    let at = 0;
    // Whole chunks that arrive aligned are passed on as they are, without a copy.
    while (filled === 0 && piece.byteLength - at >= chunk_bytes) {
      yield Buffer.from(piece.buffer, piece.byteOffset + at, chunk_bytes);
      at += chunk_bytes;
    }
    while (at < piece.byteLength) {
      const take = Math.min(chunk_bytes - filled, piece.byteLength - at);
      buffer.set(piece.subarray(at, at + take), filled);
      filled += take;
      at += take;
      if (filled === chunk_bytes) {
        yield buffer;
        // The chunk just yielded may still be in use by its writer: never reuse its memory.
        buffer = Buffer.allocUnsafe(chunk_bytes);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield buffer.subarray(0, filled);
}
