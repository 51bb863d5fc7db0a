/**
 * The HTTP/2 engine against node:http2 (nghttp2) in both roles, and against itself: echo streams
 * with trailers, bodies far larger than every window, many concurrent streams, header blocks split
 * into CONTINUATION frames, cancellation, GOAWAY, and a client that sends garbage.
 */
import * as http2 from 'node:http2';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectH2 } from '../../../src/common/h2/client.js';
import type { H2Connection } from '../../../src/common/h2/connection.js';
import { serveH2 } from '../../../src/common/h2/server.js';
import type { H2Headers, H2Stream, H2StreamHandler, StreamEnd } from '../../../src/common/h2/stream.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function pattern(bytes: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

/** An engine server that echoes each request's body back, with the request's x-tag as a trailer. */
async function engineEchoServer(o: { pause_first_ms?: number } = {}): Promise<{ port: number; connections: ReadonlySet<H2Connection>; server: net.Server }> {
  const server = net.createServer();
  const h2 = serveH2(server, {
    onStream(stream, headers) {
      stream.respond({ ':status': 200, 'content-type': 'application/octet-stream', 'x-path': headers[':path'] ?? '' });
      if (o.pause_first_ms !== undefined) {
        stream.pause();
        setTimeout(() => stream.resume(), o.pause_first_ms);
      }
      stream.handler = {
        onResponse() {},
        onTrailers() {},
        onData(chunk) {
          if (!stream.write(chunk)) stream.pause();
        },
        onDrain() {
          stream.resume();
        },
        onEnd() {
          stream.end({ 'x-tag': headers['x-tag'] ?? 'none', 'x-bytes': 'done' });
        },
        onClose() {},
      };
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => {
    for (const c of h2.connections) c.destroy();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, connections: h2.connections, server };
}

/** A node:http2 server doing the same echo. */
async function nodeEchoServer(): Promise<number> {
  const server = http2.createServer({ maxSessionMemory: 1000, settings: { maxHeaderListSize: 1 << 20 } });
  server.on('stream', (stream, headers) => {
    stream.on('error', () => {});
    stream.respond({ ':status': 200, 'x-path': String(headers[':path']) }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'x-tag': String(headers['x-tag'] ?? 'none'), 'x-bytes': 'done' }));
    stream.pipe(stream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const sessions = new Set<http2.Http2Session>();
  server.on('session', (s) => sessions.add(s));
  cleanups.push(() => {
    for (const s of sessions) s.destroy();
    server.close();
  });
  return (server.address() as AddressInfo).port;
}

interface Answer {
  readonly headers: H2Headers;
  readonly body: Buffer;
  readonly trailers: H2Headers | undefined;
  readonly end: StreamEnd;
}

/** One request on an engine client: sends `body` respecting backpressure, gathers the answer. */
function engineRequest(conn: H2Connection, path: string, body: Buffer, extra: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const stream = conn.request({ ':method': 'POST', ':scheme': 'http', ':authority': 'localhost', ':path': path, ...extra });
    if (stream === undefined) throw new Error('the connection took no stream');
    let headers: H2Headers = {};
    let trailers: H2Headers | undefined;
    const chunks: Buffer[] = [];
    let sent = 0;
    const chunk_bytes = 100_000;
    const pump = (): void => {
      while (sent < body.length) {
        const piece = body.subarray(sent, sent + chunk_bytes);
        sent += piece.length;
        if (!stream.write(piece)) return;
      }
      stream.end();
    };
    const handler: H2StreamHandler = {
      onResponse(h) {
        headers = h;
      },
      onTrailers(h) {
        trailers = h;
      },
      onData(c) {
        chunks.push(c);
      },
      onEnd() {},
      onDrain: pump,
      onClose(end) {
        resolve({ headers, body: Buffer.concat(chunks), trailers, end });
      },
    };
    stream.handler = handler;
    pump();
  });
}

function nodeRequest(session: http2.ClientHttp2Session, path: string, body: Buffer, extra: Record<string, string> = {}): Promise<{ headers: http2.IncomingHttpHeaders; body: Buffer; trailers: http2.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':method': 'POST', ':path': path, ...extra });
    let headers: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    req.on('response', (h) => (headers = h));
    req.on('trailers', (t) => (trailers = t));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve({ headers, body: Buffer.concat(chunks), trailers }));
    req.on('error', reject);
    req.end(body);
  });
}

function engineClient(port: number): H2Connection {
  const conn = connectH2({ host: '127.0.0.1', port });
  cleanups.push(() => conn.destroy());
  return conn;
}

describe('h2 engine as a server, node:http2 as the client', () => {
  it('echoes small and large bodies on concurrent streams, with response headers and trailers', async () => {
    const { port } = await engineEchoServer();
    const session = http2.connect(`http://127.0.0.1:${port}`);
    cleanups.push(() => session.destroy());
    const sizes = [0, 1, 16_384, 16_385, 70_000, 5_000_000];
    const answers = await Promise.all(sizes.map((n, i) => nodeRequest(session, `/echo/${i}`, pattern(n, i), { 'x-tag': `t${i}` })));
    answers.forEach((a, i) => {
      expect(a.headers[':status']).toBe(200);
      expect(a.headers['x-path']).toBe(`/echo/${i}`);
      expect(a.body.equals(pattern(sizes[i]!, i)), `body ${i}`).toBe(true);
      expect(a.trailers['x-tag']).toBe(`t${i}`);
    });
  });

  it('200 concurrent streams each get their own answer', async () => {
    const { port } = await engineEchoServer();
    const session = http2.connect(`http://127.0.0.1:${port}`);
    cleanups.push(() => session.destroy());
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => nodeRequest(session, `/many/${i}`, pattern(1000 + i, i), { 'x-tag': String(i) })));
    answers.forEach((a, i) => {
      expect(a.body.equals(pattern(1000 + i, i))).toBe(true);
      expect(a.trailers['x-tag']).toBe(String(i));
    });
  });

  it('a server that pauses its reader stops the client through flow control, then takes everything', async () => {
    const { port } = await engineEchoServer({ pause_first_ms: 200 });
    const session = http2.connect(`http://127.0.0.1:${port}`);
    cleanups.push(() => session.destroy());
    const body = pattern(12_000_000, 7);
    const a = await nodeRequest(session, '/paused', body);
    expect(a.body.equals(body)).toBe(true);
  });
});

describe('h2 engine as a client, node:http2 as the server', () => {
  it('echoes bodies across many frames and windows, on concurrent streams', async () => {
    const port = await nodeEchoServer();
    const conn = engineClient(port);
    const sizes = [0, 5, 65_535, 65_536, 1_000_000, 9_000_000];
    const answers = await Promise.all(sizes.map((n, i) => engineRequest(conn, `/e/${i}`, pattern(n, i), { 'x-tag': `n${i}` })));
    answers.forEach((a, i) => {
      expect(a.end.kind).toBe('done');
      expect(a.headers[':status']).toBe('200');
      expect(a.body.equals(pattern(sizes[i]!, i)), `body ${i}`).toBe(true);
      expect(a.trailers?.['x-tag']).toBe(`n${i}`);
    });
  });

  it('a 40 KB header is sent as HEADERS and CONTINUATION frames and arrives whole', async () => {
    const port = await nodeEchoServer();
    const conn = engineClient(port);
    // nghttp2 refuses one header field over 64 KB; 40,000 characters still need three frames of 16 KB.
    const big = 'v'.repeat(40_000);
    const a = await engineRequest(conn, '/big-header', Buffer.from('x'), { 'x-tag': big });
    expect(a.trailers?.['x-tag']).toBe(big);
  });

  it('cancel resets the stream; the connection serves the next request', async () => {
    const port = await nodeEchoServer();
    const conn = engineClient(port);
    const stream = conn.request({ ':method': 'POST', ':scheme': 'http', ':authority': 'x', ':path': '/c' })!;
    const closed = new Promise<StreamEnd>((resolve) => {
      stream.handler = { onResponse() {}, onTrailers() {}, onData() {}, onEnd() {}, onDrain() {}, onClose: resolve };
    });
    stream.write(Buffer.from('partial'));
    stream.cancel();
    expect(await closed).toEqual({ kind: 'reset', code: 8, by: 'local' });
    const a = await engineRequest(conn, '/after', Buffer.from('ok'));
    expect(a.body.toString()).toBe('ok');
  });
});

describe('h2 engine against itself', () => {
  it('echo with large bodies both ways and 300 concurrent streams', async () => {
    const { port } = await engineEchoServer();
    const conn = engineClient(port);
    const big = await engineRequest(conn, '/big', pattern(20_000_000, 3));
    expect(big.body.equals(pattern(20_000_000, 3))).toBe(true);
    const many = await Promise.all(Array.from({ length: 300 }, (_, i) => engineRequest(conn, `/m/${i}`, pattern(i * 10, i), { 'x-tag': `m${i}` })));
    many.forEach((a, i) => {
      expect(a.body.equals(pattern(i * 10, i))).toBe(true);
      expect(a.trailers?.['x-tag']).toBe(`m${i}`);
    });
  });

  it('more requests than the server\'s MAX_CONCURRENT_STREAMS wait for a slot rather than fail', async () => {
    const server = net.createServer();
    let open = 0;
    let open_max = 0;
    const h2 = serveH2(server, {
      settings: { concurrent_streams_max: 3 },
      onStream(stream: H2Stream) {
        open_max = Math.max(open_max, ++open);
        stream.respond({ ':status': 200 });
        stream.handler = {
          onResponse() {},
          onTrailers() {},
          onData() {},
          onDrain() {},
          onEnd() {
            setTimeout(() => {
              open--;
              stream.end({ done: '1' });
            }, 5);
          },
          onClose() {},
        };
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => {
      for (const c of h2.connections) c.destroy();
      server.close();
    });
    const conn = engineClient((server.address() as AddressInfo).port);
    // The first request also waits for the server's SETTINGS to learn the limit.
    await engineRequest(conn, '/first', Buffer.alloc(0));
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => engineRequest(conn, `/q/${i}`, Buffer.alloc(0))));
    expect(all.every((a) => a.trailers?.done === '1')).toBe(true);
    expect(open_max).toBeLessThanOrEqual(3);
  });

  it('GOAWAY from the server: streams in flight finish, new requests are refused, the connection closes', async () => {
    const { port, connections } = await engineEchoServer({ pause_first_ms: 100 });
    const conn = engineClient(port);
    const inflight = engineRequest(conn, '/inflight', pattern(300_000, 1));
    await new Promise((r) => setTimeout(r, 30));
    let goaway_seen = false;
    for (const c of connections) c.goaway();
    const closed = new Promise<void>((resolve) => conn.socket.once('close', () => resolve()));
    const a = await inflight;
    expect(a.end.kind).toBe('done');
    expect(a.body.equals(pattern(300_000, 1))).toBe(true);
    await closed;
    goaway_seen = !conn.accepting;
    expect(goaway_seen).toBe(true);
    expect(conn.request({ ':method': 'POST', ':path': '/late', ':scheme': 'http' })).toBeUndefined();
  });
});

describe('h2 engine server and a client that sends garbage', () => {
  for (const [name, bytes] of [
    ['HTTP/1.1', Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')],
    ['a preface then a frame of the wrong type first', Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), Buffer.from([0, 0, 8, 6, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8])])],
    ['a preface, SETTINGS, then an oversized frame', Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]), Buffer.from([0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 1])])],
  ] as const) {
    it(`${name}: the connection gets GOAWAY and is closed; the server goes on serving`, async () => {
      const { port } = await engineEchoServer();
      const socket = net.connect(port, '127.0.0.1');
      const received: Buffer[] = [];
      socket.on('data', (d: Buffer) => received.push(d));
      socket.on('error', () => {});
      socket.write(bytes);
      await new Promise<void>((resolve) => socket.once('close', () => resolve()));
      const all = Buffer.concat(received);
      // Somewhere in what came back is a GOAWAY frame (type 7) with a non-zero error code.
      let at = 0;
      let goaway_code = -1;
      while (at + 9 <= all.length) {
        const len = all.readUIntBE(at, 3);
        if (all[at + 3] === 7) goaway_code = all.readUInt32BE(at + 9 + 4);
        at += 9 + len;
      }
      expect(goaway_code).toBeGreaterThan(0);
      const conn = engineClient(port);
      const a = await engineRequest(conn, '/still', Buffer.from('alive'));
      expect(a.body.toString()).toBe('alive');
    });
  }
});
