import { closeSync, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { externalResourceFailed, type CsvInput } from '../../query/execute/csv/csv-source.js';

/** Bytes read from a local file per call: one piece of text handed to the parser. */
export const csv_file_chunk_bytes = 1024 * 1024;
/** Bytes a stream (remote, or decompressed) may have delivered and not yet been read before it is paused. */
export const csv_stream_buffered_bytes_max = 4 * 1024 * 1024;

/**
 * A local file read synchronously in pieces: a statement run in one go (an auto-committed write, a
 * statement of an explicit transaction) can read it without waiting. UTF-8 is decoded across the
 * pieces' boundaries.
 */
export class FileCsvInput implements CsvInput {
  private fd: number;
  private readonly buffer = Buffer.allocUnsafe(csv_file_chunk_bytes);
  private readonly decoder = new TextDecoder('utf-8');
  private done = false;

  constructor(
    readonly file: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  read(): string | null {
    if (this.done) return null;
    const got = readSync(this.fd, this.buffer, 0, this.buffer.length, null);
    if (got === 0) {
      this.done = true;
      const rest = this.decoder.decode();
      return rest === '' ? null : rest;
    }
    return this.decoder.decode(this.buffer.subarray(0, got), { stream: true });
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    this.done = true;
  }
}

/**
 * A byte stream (an HTTP response, a decompressed file) read as its data arrives. At most
 * `csv_stream_buffered_bytes_max` wait unread: past that the stream is paused until the statement has
 * read them, so a fast source cannot fill memory while the writes catch up.
 */
export class StreamCsvInput implements CsvInput {
  private readonly queue: Buffer[] = [];
  private queued = 0;
  private ended = false;
  private error: Error | undefined;
  private wake: (() => void) | undefined;
  private readonly decoder = new TextDecoder('utf-8');
  private flushed = false;

  constructor(
    readonly file: string,
    private readonly stream: Readable,
    /** Names the source in errors. */
    private readonly location: string,
  ) {
    stream.on('data', (chunk: Buffer) => {
      this.queue.push(chunk);
      this.queued += chunk.length;
      if (this.queued > csv_stream_buffered_bytes_max) stream.pause();
      this.notify();
    });
    stream.on('end', () => {
      this.ended = true;
      this.notify();
    });
    stream.on('error', (e: Error) => {
      this.error = e;
      this.notify();
    });
  }

  read(): string | null | Promise<void> {
    if (this.error !== undefined) {
      throw externalResourceFailed('ReadFailed', `Couldn't load the external resource at: ${this.location} (${this.error.message})`);
    }
    const chunk = this.queue.shift();
    if (chunk !== undefined) {
      this.queued -= chunk.length;
      if (this.stream.isPaused() && this.queued <= csv_stream_buffered_bytes_max / 2) this.stream.resume();
      return this.decoder.decode(chunk, { stream: true });
    }
    if (this.ended) {
      if (this.flushed) return null;
      this.flushed = true;
      return this.decoder.decode();
    }
    return new Promise<void>((resolve) => {
      this.wake = resolve;
    });
  }

  close(): void {
    this.ended = true;
    this.queue.length = 0;
    this.stream.destroy();
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
