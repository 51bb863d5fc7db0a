/**
 * Flow control as the engine's client sends: never beyond the peer's stream window, the window
 * taken from the peer's SETTINGS_INITIAL_WINDOW_SIZE, moved by a change of it mid-connection
 * (RFC 9113 section 6.9.2), and opened by WINDOW_UPDATE. The peer is a scripted socket that reads
 * our frames with the engine's own frame reader.
 */
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { connectH2 } from '../../../src/common/h2/client.js';
import { client_preface, settingsAckFrame, settingsFrame, windowUpdateFrame } from '../../../src/common/h2/frame.js';
import { FrameReader, type Frame } from '../../../src/common/h2/frame-parser.js';
import { setting_id } from '../../../src/common/h2/settings.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

it('flow control: the client sends within the initial window, the window a SETTINGS change moves, and WINDOW_UPDATE credit', async () => {
  let peer: net.Socket | undefined;
  let data_bytes = 0;
  let ended = false;
  const server = net.createServer((socket) => {
    peer = socket;
    const reader = new FrameReader(1 << 20);
    let preface_left = client_preface.length;
    socket.on('data', (chunk: Buffer) => {
      let rest = chunk;
      if (preface_left > 0) {
        const n = Math.min(preface_left, rest.length);
        preface_left -= n;
        rest = rest.subarray(n);
      }
      reader.push(rest, (f: Frame) => {
        if (f.type === 'data') {
          data_bytes += f.data.length;
          if (f.end_stream) ended = true;
        }
      });
    });
    // A stream window of 10 bytes from the start.
    socket.write(Buffer.concat([settingsFrame([{ id: setting_id.INITIAL_WINDOW_SIZE, value: 10 }]), settingsAckFrame()]));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => {
    peer?.destroy();
    server.close();
  });
  const conn = connectH2({ host: '127.0.0.1', port: (server.address() as AddressInfo).port });
  cleanups.push(() => conn.destroy());
  await until(() => conn.peer_settings.initial_window_bytes === 10, 'the peer settings');
  const stream = conn.request({ ':method': 'POST', ':scheme': 'http', ':path': '/w' })!;
  stream.write(Buffer.alloc(100, 1));
  stream.end();
  await until(() => data_bytes === 10, '10 bytes');
  await new Promise((r) => setTimeout(r, 50));
  expect(data_bytes).toBe(10);
  // Raising the initial window to 60 adds 50 to the open stream's window.
  peer!.write(settingsFrame([{ id: setting_id.INITIAL_WINDOW_SIZE, value: 60 }]));
  await until(() => data_bytes === 60, '60 bytes');
  await new Promise((r) => setTimeout(r, 50));
  expect(data_bytes).toBe(60);
  expect(ended).toBe(false);
  // Lowering it to 0 takes the window to -60: a WINDOW_UPDATE of 60 sends nothing more, one of 100 the rest.
  peer!.write(settingsFrame([{ id: setting_id.INITIAL_WINDOW_SIZE, value: 0 }]));
  peer!.write(windowUpdateFrame(stream.id, 60));
  await new Promise((r) => setTimeout(r, 50));
  expect(data_bytes).toBe(60);
  peer!.write(windowUpdateFrame(stream.id, 100));
  await until(() => ended, 'the end of the stream');
  expect(data_bytes).toBe(100);
});
