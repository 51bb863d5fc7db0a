// gRPC's length-prefixed messages cut at any byte: the deframer gives back exactly what was framed.
import { describe, expect, it } from 'vitest';
import { frameMessage, grpc_frame_copy_bytes_max, MessageDeframer } from '../../src/api/grpc-framing.js';
import { prng, testSeed } from '../support/prng.js';

describe('gRPC message framing', () => {
  it('messages of every size, framed and cut into random chunks, come back whole and in order (seeded)', () => {
    const random = prng(testSeed('grpc framing'));
    const sizes = [0, 1, 4, 5, 6, 100, grpc_frame_copy_bytes_max - 1, grpc_frame_copy_bytes_max, 70_000];
    for (let round = 0; round < 50; round++) {
      const messages = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, i) => {
        const size = sizes[Math.floor(random() * sizes.length)]!;
        // Each message its own byte pattern, so a mixed-up boundary shows.
        return Buffer.alloc(size, `${round}:${i}:${size};`);
      });
      const wire = Buffer.concat(messages.flatMap((m) => frameMessage(m)));
      const deframer = new MessageDeframer(1 << 20);
      const got: Buffer[] = [];
      for (let at = 0; at < wire.length; ) {
        const take = 1 + Math.floor(random() * (random() < 0.5 ? 8 : 40_000));
        got.push(...deframer.push(wire.subarray(at, at + take)).map((m) => m.bytes));
        at += take;
      }
      expect(deframer.midMessage).toBe(false);
      expect(got.map((m) => m.length)).toEqual(messages.map((m) => m.length));
      expect(got.every((m, i) => m.equals(messages[i]!))).toBe(true);
    }
  });

  it('a prefix announcing more than the bound is refused before the message is read', () => {
    const deframer = new MessageDeframer(1000);
    const prefix = Buffer.from([0, 0, 0, 0x03, 0xe9]); // 1001 bytes
    expect(() => deframer.push(prefix)).toThrow(/larger than 1000 bytes/);
  });

  it('a flag other than 0 or 1 is a protocol error; the flag is kept per message', () => {
    expect(() => new MessageDeframer(100).push(Buffer.from([2, 0, 0, 0, 0]))).toThrow(/flag 2/);
    const [plain, packed] = new MessageDeframer(100).push(Buffer.from([0, 0, 0, 0, 1, 7, 1, 0, 0, 0, 1, 8]));
    expect(plain).toEqual({ compressed: false, bytes: Buffer.from([7]) });
    expect(packed).toEqual({ compressed: true, bytes: Buffer.from([8]) });
  });

  it('a stream that ends inside a prefix or a body is seen as cut short', () => {
    const inPrefix = new MessageDeframer(100);
    inPrefix.push(Buffer.from([0, 0]));
    expect(inPrefix.midMessage).toBe(true);
    const inBody = new MessageDeframer(100);
    inBody.push(Buffer.from([0, 0, 0, 0, 3, 1]));
    expect(inBody.midMessage).toBe(true);
  });
});
