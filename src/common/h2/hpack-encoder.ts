/**
 * The HPACK encoder (RFC 7541), built to be cheap on gRPC's headers: fields in the static table go
 * out as one index byte; the fields every call repeats (content-type, te, grpc-status,
 * grpc-accept-encoding, user-agent...) are added to the dynamic table the first time and sent as
 * an index after; everything else is a literal without indexing, so one-off values (paths,
 * messages, timeouts) do not churn the table. Strings are Huffman-coded when that is shorter.
 */
import { DynamicTable, hpack_entry_overhead_bytes } from './hpack-decoder.js';
import { static_index_by_name, static_index_by_pair, static_table_length } from './hpack-static-table.js';
import { huffmanEncodeInto, huffmanLength } from './huffman.js';

/** Header names whose values repeat from call to call: worth a dynamic table entry. */
const indexed_names: ReadonlySet<string> = new Set([
  ':authority',
  ':path',
  'content-type',
  'te',
  'grpc-status',
  'grpc-accept-encoding',
  'grpc-encoding',
  'accept-encoding',
  'user-agent',
]);

/** A value longer than this is never added to the table: it would push out the useful entries. */
const indexed_value_chars_max = 256;

export type OutgoingHeaderValue = string | number | readonly string[] | undefined;
export type OutgoingHeaders = Readonly<Record<string, OutgoingHeaderValue>>;

export class HpackEncoder {
  /** Mirrors the peer decoder's table; the same adds in the same order keep them equal. */
  private readonly table: DynamicTable;
  /** Where each indexed pair sits: its insertion number (dynamic index = inserted - number + 1). */
  private readonly positions = new Map<string, number>();
  /** Entries added so far; with the table's length it gives which insertion numbers are still live. */
  private inserted = 0;
  private table_bytes_max: number;
  /** A size update to announce at the start of the next block, after the peer changed its limit. */
  private pending_size_update: number | undefined;
  private out = Buffer.allocUnsafe(4096);
  private at = 0;

  constructor(table_bytes_max = 4096) {
    this.table_bytes_max = table_bytes_max;
    this.table = new DynamicTable(table_bytes_max);
  }

  /** The peer's SETTINGS_HEADER_TABLE_SIZE changed: keep within it and say so in the next block. */
  setTableLimit(bytes: number): void {
    const size = Math.min(bytes, 4096);
    if (size === this.table_bytes_max) return;
    this.table_bytes_max = size;
    this.table.resize(size);
    this.pending_size_update = size;
  }

  /** One header block for these fields, pseudo-headers first as HTTP/2 requires. */
  encode(headers: OutgoingHeaders): Buffer {
    this.at = 0;
    if (this.pending_size_update !== undefined) {
      this.integer(this.pending_size_update, 5, 0x20);
      this.pending_size_update = undefined;
    }
    for (const name in headers) if (name.charCodeAt(0) === 0x3a) this.field(name, headers[name]);
    for (const name in headers) if (name.charCodeAt(0) !== 0x3a) this.field(name, headers[name]);
    return Buffer.from(this.out.subarray(0, this.at));
  }

  private field(name: string, raw: OutgoingHeaderValue): void {
    if (raw === undefined) return;
    if (typeof raw === 'object') {
      for (const v of raw) this.one(name, v);
      return;
    }
    this.one(name, typeof raw === 'number' ? String(raw) : raw);
  }

  private one(name: string, value: string): void {
    const key = `${name}\0${value}`;
    const static_index = static_index_by_pair.get(key);
    if (static_index !== undefined) {
      this.integer(static_index, 7, 0x80);
      return;
    }
    const name_index = static_index_by_name.get(name) ?? 0;
    if (indexed_names.has(name) && value.length <= indexed_value_chars_max) {
      const position = this.positions.get(key);
      if (position !== undefined) {
        const dynamic_index = this.inserted - position;
        if (dynamic_index <= this.table.length) {
          this.integer(static_table_length + dynamic_index, 7, 0x80);
          return;
        }
        this.positions.delete(key);
      }
      this.integer(name_index, 6, 0x40);
      if (name_index === 0) this.string(name);
      this.string(value);
      if (name.length + value.length + hpack_entry_overhead_bytes <= this.table_bytes_max) {
        this.table.add([name, value]);
        this.positions.set(key, this.inserted);
        this.inserted++;
      }
      return;
    }
    this.integer(name_index, 4, 0x00);
    if (name_index === 0) this.string(name);
    this.string(value);
  }

  private reserve(bytes: number): void {
    if (this.at + bytes <= this.out.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.at + bytes));
    this.out.copy(bigger, 0, 0, this.at);
    this.out = bigger;
  }

  /** An integer with an N-bit prefix (RFC 7541 section 5.1); `high` holds the representation's bits. */
  private integer(value: number, prefix_bits: number, high: number): void {
    this.reserve(6);
    const mask = (1 << prefix_bits) - 1;
    if (value < mask) {
      this.out[this.at++] = high | value;
      return;
    }
    this.out[this.at++] = high | mask;
    let rest = value - mask;
    while (rest >= 0x80) {
      this.out[this.at++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.out[this.at++] = rest;
  }

  private string(text: string): void {
    const coded = huffmanLength(text);
    if (coded < text.length) {
      this.integer(coded, 7, 0x80);
      this.reserve(coded);
      this.at = huffmanEncodeInto(text, this.out, this.at);
    } else {
      this.integer(text.length, 7, 0x00);
      this.reserve(text.length);
      this.at += this.out.write(text, this.at, 'latin1');
    }
  }
}
