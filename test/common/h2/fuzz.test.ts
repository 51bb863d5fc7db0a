/**
 * Seeded fuzzing of what a peer controls: random and mutated bytes through the frame reader and
 * the HPACK decoder never throw anything but the typed connection error, and a whole connection
 * fed random frames after a valid preface answers with GOAWAY rather than crashing.
 */
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectH2 } from '../../../src/common/h2/client.js';
import { client_preface } from '../../../src/common/h2/frame.js';
import { serveH2 } from '../../../src/common/h2/server.js';
import { H2ConnectionError } from '../../../src/common/h2/errors.js';
import { FrameReader } from '../../../src/common/h2/frame-parser.js';
import { HpackDecoder } from '../../../src/common/h2/hpack-decoder.js';
import { HpackEncoder } from '../../../src/common/h2/hpack-encoder.js';
import { prng, testSeed } from '../../support/prng.js';

function randomBytes(next: () => number, n: number): Buffer {
  const out = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(next() * 256);
  return out;
}

/** Runs `f`; anything thrown must be an H2ConnectionError. Returns whether it threw. */
function onlyTypedErrors(f: () => void): boolean {
  try {
    f();
    return false;
  } catch (e) {
    if (!(e instanceof H2ConnectionError)) throw e;
    return true;
  }
}

describe('fuzz: frame reader and HPACK decoder', () => {
  it('random frames (plausible headers, random payloads) parse or fail with H2ConnectionError only', () => {
    const seed = testSeed('h2 frame fuzz');
    const next = prng(seed);
    let failures = 0;
    for (let round = 0; round < 3000; round++) {
      const reader = new FrameReader(16_384);
      // A header with a small length and a random type, flags and stream, so most frames are whole.
      const length = Math.floor(next() * 40);
      const head = Buffer.from([0, 0, length, Math.floor(next() * 12), Math.floor(next() * 256), ...randomBytes(next, 4)]);
      const bytes = Buffer.concat([head, randomBytes(next, length + Math.floor(next() * 20))]);
      // Split at a random point: frames straddle reads.
      const cut = Math.floor(next() * bytes.length);
      if (onlyTypedErrors(() => {
        reader.push(bytes.subarray(0, cut), () => {});
        reader.push(bytes.subarray(cut), () => {});
      })) failures++;
    }
    // Many of them are malformed; the point is that every failure was the typed one.
    expect(failures).toBeGreaterThan(0);
  });

  it('random header blocks, and valid blocks with bytes flipped, decode or fail with H2ConnectionError only', () => {
    const seed = testSeed('hpack fuzz');
    const next = prng(seed);
    const encoder = new HpackEncoder();
    let failures = 0;
    for (let round = 0; round < 3000; round++) {
      const decoder = new HpackDecoder(4096, 64 * 1024);
      let block: Buffer;
      if (next() < 0.5) block = randomBytes(next, 1 + Math.floor(next() * 64));
      else {
        block = Buffer.from(encoder.encode({ ':path': `/p/${round}`, 'content-type': 'application/grpc', 'x-v': 'value'.repeat(1 + (round % 9)) }));
        const flips = 1 + Math.floor(next() * 3);
        for (let i = 0; i < flips; i++) {
          const at = Math.floor(next() * block.length);
          block[at] = (block[at] ?? 0) ^ (1 << Math.floor(next() * 8));
        }
      }
      if (onlyTypedErrors(() => decoder.decode(block, () => {}))) failures++;
    }
    expect(failures).toBeGreaterThan(0);
  });
});

describe('fuzz: a live connection', () => {
  it('connections fed random frames after a valid preface are closed, and the server keeps serving', async () => {
    const seed = testSeed('h2 connection fuzz');
    const next = prng(seed);
    const server = net.createServer();
    const h2 = serveH2(server, {
      onStream(stream) {
        stream.respond({ ':status': 200 });
        stream.end({ done: '1' });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      for (let round = 0; round < 30; round++) {
        const frames: Buffer[] = [client_preface, Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])];
        for (let i = 0; i < 20; i++) {
          const length = Math.floor(next() * 30);
          frames.push(Buffer.from([0, 0, length, Math.floor(next() * 10), Math.floor(next() * 256), 0, 0, 0, Math.floor(next() * 8)]), randomBytes(next, length));
        }
        const socket = net.connect(port, '127.0.0.1');
        socket.on('error', () => {});
        socket.on('data', () => {});
        socket.write(Buffer.concat(frames));
        // Random frames that happen to be valid leave the connection open; end it from our side then.
        const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
        setTimeout(() => socket.end(), 50);
        await closed;
      }
      const conn = connectH2({ host: '127.0.0.1', port });
      const done = await new Promise<string | undefined>((resolve) => {
        const stream = conn.request({ ':method': 'GET', ':scheme': 'http', ':path': '/' }, true)!;
        let trailer: string | undefined;
        stream.handler = { onResponse() {}, onData() {}, onEnd() {}, onDrain() {}, onTrailers: (t) => (trailer = t['done']), onClose: () => resolve(trailer) };
      });
      expect(done).toBe('1');
      conn.destroy();
    } finally {
      for (const c of h2.connections) c.destroy();
      server.close();
    }
  });
});
