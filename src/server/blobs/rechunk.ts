/**
 * Blob chunking (SPEC 4.4, 8): the bytes of an upload, however the client framed them, are cut at
 * fixed 256 KiB boundaries, so the same content always gives the same chunks, the same chunk ids
 * and the same blob id. A chunk is handed on as the parts it arrived in (views, never copies: an
 * upload's bytes are copied only by the kernel, into the pack), and at most one chunk is held here.
 */
export const blob_chunk_bytes = 256 * 1024;

/** A run of bytes held as several buffers, in order. */
export type ByteParts = readonly Uint8Array[];

/** An upload's piece: one buffer, or the parts one message's bytes arrived in. */
export type UploadPiece = Uint8Array | ByteParts;

/** The bytes of a run of parts. */
export function partsBytes(parts: ByteParts): number {
  let n = 0;
  for (const p of parts) n += p.byteLength;
  return n;
}

/**
 * The source's bytes as chunks of `chunk_bytes` (the last one shorter), each as its parts: no
 * part is empty, and a part never crosses a chunk boundary.
 */
export async function* fixedChunks(source: AsyncIterable<UploadPiece>, chunk_bytes = blob_chunk_bytes): AsyncGenerator<ByteParts, void, undefined> {
  let parts: Uint8Array[] = [];
  let filled = 0;
  for await (const piece of source) {
    for (const part of piece instanceof Uint8Array ? [piece] : piece) {
      let at = 0;
      while (at < part.byteLength) {
        const take = Math.min(chunk_bytes - filled, part.byteLength - at);
        parts.push(at === 0 && take === part.byteLength ? part : part.subarray(at, at + take));
        filled += take;
        at += take;
        if (filled === chunk_bytes) {
          yield parts;
          parts = [];
          filled = 0;
        }
      }
    }
  }
  if (filled > 0) yield parts;
}
