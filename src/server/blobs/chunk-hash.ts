import { webcrypto } from 'node:crypto';

/**
 * SHA-256 of a chunk, computed on libuv's thread pool: WebCrypto's digest is asynchronous, where
 * `createHash` runs on the event loop (about 0.2 ms per 256 KiB chunk, during which no stream
 * message is read or sent). Several chunks in flight hash at once, on the pool's threads.
 */
export async function chunkDigest(data: Uint8Array): Promise<Buffer> {
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', data));
}
