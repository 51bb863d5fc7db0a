/**
 * The user-space cost of the gRPC transport's byte path for blob chunks, without sockets, disks or
 * a second process, so the figure holds still on a busy machine (each way is run `--rounds` times
 * and the least CPU taken). Two directions:
 *
 * - receive: an upload's HTTP/2 bytes (256 KiB BlobChunk messages in 16 KiB DATA frames, as
 *   node:http2 clients send them) cut into 64 KiB reads, through the frame reader, the gRPC
 *   deframer and the protobuf decoder, to the chunk's bytes. `joined`: whole frames, each message
 *   joined into one buffer and decoded by protobuf-es (what every method gets); `parts`: DATA
 *   passed on as views of the reads, the message left in parts and decoded without joining them
 *   (message-parts delivery, what UploadBlob gets).
 * - send: a download's 256 KiB replies encoded and framed for the stream. `copied`: toBinary and
 *   frameMessage (the chunk copied into the reply); `parts`: encodeMessageParts and
 *   frameMessageParts (the chunk sent from its own buffer).
 *
 *   npx tsx bench/blob-receive-path.ts [--mb 1024] [--rounds 5]
 *
 * Prints a table of CPU seconds per GiB and writes bench/results/blob-receive-path.json. On a tree
 * without message-parts delivery the `parts` ways are left out.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
// Namespace imports: the same file runs on a tree from before message-parts delivery (`joined`
// and `copied` only), to compare the frame reader of then and now.
import * as framing from '../src/common/grpc/framing.js';
import * as message_parts from '../src/common/grpc/message-parts.js';
import { flag, frameWith, frame_type } from '../src/common/h2/frame.js';
import { FrameReader } from '../src/common/h2/frame-parser.js';
import { BlobChunkSchema } from '../src/gen/weft/v1/blob_pb.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const blob_mb = arg('mb', 1024);
const rounds = arg('rounds', 5);
const chunk_bytes = 256 * 1024;
/** What node:http2 puts in one DATA frame, and what one socket read brings. */
const data_frame_bytes = 16 * 1024;
const read_bytes = 64 * 1024;
const gib = 1024 * 1024 * 1024;

/** One upload's worth of wire bytes for `messages` chunks (the same message repeated, sequence aside). */
function uploadWire(messages: number): Buffer {
  const data = Buffer.alloc(chunk_bytes, 7);
  const frames: Buffer[] = [];
  for (let sequence = 0; sequence < messages; sequence++) {
    const framed = Buffer.concat(framing.frameMessage(toBinary(BlobChunkSchema, create(BlobChunkSchema, { data, sequence }))));
    for (let at = 0; at < framed.length; at += data_frame_bytes) frames.push(frameWith(frame_type.DATA, 0, 1, framed.subarray(at, at + data_frame_bytes)));
  }
  frames.push(frameWith(frame_type.DATA, flag.END_STREAM, 1, Buffer.alloc(0)));
  return Buffer.concat(frames);
}

function cpuSeconds(f: () => void): number {
  const before = process.cpuUsage();
  f();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

/** The wire in 64 KiB reads, each its own buffer as a socket gives them (made once, outside the measure). */
function readsOf(wire: Buffer): Buffer[] {
  const reads: Buffer[] = [];
  for (let at = 0; at < wire.length; at += read_bytes) reads.push(Buffer.from(wire.subarray(at, at + read_bytes)));
  return reads;
}

/** The reads through the receive path, `repeats` times; answers the messages decoded. */
function receive(reads: readonly Buffer[], parts: boolean, repeats: number): number {
  let seen = 0;
  for (let r = 0; r < repeats; r++) {
    const reader = new FrameReader(64 * 1024, { data_pieces: parts });
    const deframer = new framing.MessageDeframer(4 * 1024 * 1024);
    for (const read of reads) {
      reader.push(read, (frame) => {
        if (frame.type !== 'data') return;
        if (parts) {
          for (const m of deframer.pushParts(frame.data)) seen += message_parts.decodeMessageParts(BlobChunkSchema, m.parts)!.field_parts.length > 0 ? 1 : 0;
        } else for (const m of deframer.push(frame.data)) seen += fromBinary(BlobChunkSchema, m.bytes).data.length > 0 ? 1 : 0;
      });
    }
  }
  return seen;
}

function send(messages: number, parts: boolean): number {
  // One buffer per chunk, as a download reads them (a view of its read).
  const data = Buffer.alloc(chunk_bytes, 3);
  let bytes = 0;
  for (let sequence = 0; sequence < messages; sequence++) {
    const reply = create(BlobChunkSchema, { data, sequence });
    if (parts) {
      const encoded = message_parts.encodeMessageParts(BlobChunkSchema, reply);
      for (const b of framing.frameMessageParts(encoded, encoded.reduce((n, p) => n + p.byteLength, 0))) bytes += b.length;
    } else for (const b of framing.frameMessage(toBinary(BlobChunkSchema, reply))) bytes += b.length;
  }
  return bytes;
}

interface Row {
  readonly way: string;
  readonly cpu_s_per_gib: number;
  readonly rounds_cpu_s_per_gib: readonly number[];
}

// 64 MiB of wire, repeated to make up the blob size.
const wire_messages = 256;
const reads = readsOf(uploadWire(wire_messages));
const has_parts = typeof (message_parts as Partial<typeof message_parts>).decodeMessageParts === 'function';
const repeats = Math.max(1, Math.round((blob_mb * 1024 * 1024) / (wire_messages * chunk_bytes)));
const moved_gib = (repeats * wire_messages * chunk_bytes) / gib;
const ways: { way: string; run: () => number }[] = [
  { way: 'receive, joined (frames whole, message joined, protobuf-es)', run: () => receive(reads, false, repeats) },
  { way: 'send, copied (toBinary, frameMessage)', run: () => send(repeats * wire_messages, false) },
];
if (has_parts) {
  ways.splice(1, 0, { way: 'receive, parts (DATA as views, message in parts)', run: () => receive(reads, true, repeats) });
  ways.push({ way: 'send, parts (encodeMessageParts, frameMessageParts)', run: () => send(repeats * wire_messages, true) });
}
const rows: Row[] = [];
for (const { way, run } of ways) {
  run(); // warm-up
  const per_round: number[] = [];
  for (let r = 0; r < rounds; r++) per_round.push(cpuSeconds(run) / moved_gib);
  rows.push({ way, cpu_s_per_gib: Math.min(...per_round), rounds_cpu_s_per_gib: per_round });
}

console.log(`\nblob chunk bytes through the gRPC transport's user-space path, ${(moved_gib * 1024).toFixed(0)} MiB per round, least of ${rounds} rounds`);
console.log('| way | CPU s/GiB (least) | each round |');
console.log('|---|---:|---|');
for (const r of rows) console.log(`| ${r.way} | ${r.cpu_s_per_gib.toFixed(3)} | ${r.rounds_cpu_s_per_gib.map((x) => x.toFixed(3)).join(' · ')} |`);
const load = loadavg()[0]!;
console.log(`\nload average ${load.toFixed(2)} (1 min) at the end of the run`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/blob-receive-path.json', JSON.stringify({ blob_mb, rounds, load_average_1m: load, rows }, null, 2));
