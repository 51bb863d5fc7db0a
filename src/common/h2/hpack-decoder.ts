/**
 * The HPACK decoder (RFC 7541): header blocks to header fields, with the dynamic table, Huffman-coded
 * strings, and dynamic table size updates bounded by what we advertised (SETTINGS_HEADER_TABLE_SIZE).
 * Every malformed block is a COMPRESSION_ERROR connection error: the table's state can no longer be
 * trusted, so the connection cannot go on.
 */
import { H2ConnectionError, h2_error } from './errors.js';
import { static_table, static_table_length } from './hpack-static-table.js';
import { huffmanDecode } from './huffman.js';

/** What one entry costs in the table beyond its name and value (RFC 7541 section 4.1). */
export const hpack_entry_overhead_bytes = 32;
/** Integers above this are refused: no index, length or size we accept comes close. */
const hpack_integer_max = 0x7fff_ffff;

export type HeaderField = readonly [name: string, value: string];

function compressionError(message: string): H2ConnectionError {
  return new H2ConnectionError(h2_error.COMPRESSION_ERROR, message);
}

/** The dynamic table, newest first by index. Entries are kept in a ring so adding is O(1). */
export class DynamicTable {
  private entries: HeaderField[] = [];
  /** Index of the oldest entry in `entries`; live entries are entries[head ..]. */
  private head = 0;
  /** Invariant: size_bytes = sum of (name + value + 32) over live entries, and size_bytes <= size_bytes_max. */
  private size_bytes = 0;

  constructor(private size_bytes_max: number) {}

  get length(): number {
    return this.entries.length - this.head;
  }

  get bytes(): number {
    return this.size_bytes;
  }

  /** Entry by dynamic index: 1 is the newest. */
  get(index: number): HeaderField | undefined {
    return this.entries[this.entries.length - index];
  }

  add(field: HeaderField): void {
    const cost = field[0].length + field[1].length + hpack_entry_overhead_bytes;
    if (cost > this.size_bytes_max) {
      // An entry larger than the table empties it and is not added (RFC 7541 section 4.4).
      this.clear();
      return;
    }
    this.evictTo(this.size_bytes_max - cost);
    this.entries.push(field);
    this.size_bytes += cost;
  }

  resize(size_bytes_max: number): void {
    this.size_bytes_max = size_bytes_max;
    this.evictTo(size_bytes_max);
  }

  private evictTo(target_bytes: number): void {
    while (this.size_bytes > target_bytes && this.head < this.entries.length) {
      const old = this.entries[this.head]!;
      this.size_bytes -= old[0].length + old[1].length + hpack_entry_overhead_bytes;
      this.head++;
    }
    if (this.head > 64 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  private clear(): void {
    this.entries = [];
    this.head = 0;
    this.size_bytes = 0;
  }
}

export class HpackDecoder {
  private readonly table: DynamicTable;
  /** The table size the peer last set; at most `size_bytes_limit`. */
  private readonly size_bytes_limit: number;
  private at = 0;
  private src: Buffer = Buffer.alloc(0);

  /**
   * `table_bytes_max` is our SETTINGS_HEADER_TABLE_SIZE; `header_list_bytes_max` bounds one
   * decoded block (names, values and 32 bytes each), so a small block cannot expand without limit.
   */
  constructor(
    table_bytes_max: number,
    private readonly header_list_bytes_max: number,
  ) {
    this.size_bytes_limit = table_bytes_max;
    this.table = new DynamicTable(table_bytes_max);
  }

  /** The dynamic table's current size in bytes (RFC 7541 section 4.1). */
  get table_bytes(): number {
    return this.table.bytes;
  }

  /** Decodes one complete header block, calling `onField` for each field in order. */
  decode(block: Buffer, onField: (name: string, value: string) => void): void {
    this.src = block;
    this.at = 0;
    let list_bytes = 0;
    let fields_seen = false;
    while (this.at < block.length) {
      const first = block[this.at]!;
      let name: string;
      let value: string;
      if ((first & 0x80) !== 0) {
        // Indexed field (section 6.1).
        const index = this.integer(7);
        [name, value] = this.lookup(index);
      } else if ((first & 0x40) !== 0) {
        // Literal with incremental indexing (section 6.2.1).
        const index = this.integer(6);
        name = index === 0 ? this.string() : this.lookup(index)[0];
        value = this.string();
        this.table.add([name, value]);
      } else if ((first & 0x20) !== 0) {
        // Dynamic table size update (section 6.3): only before the first field of a block.
        if (fields_seen) throw compressionError('a dynamic table size update after a header field');
        const size = this.integer(5);
        if (size > this.size_bytes_limit) throw compressionError(`a dynamic table size of ${size} bytes, above the ${this.size_bytes_limit} allowed`);
        this.table.resize(size);
        continue;
      } else {
        // Literal without indexing (0000) or never indexed (0001) (sections 6.2.2, 6.2.3).
        const index = this.integer(4);
        name = index === 0 ? this.string() : this.lookup(index)[0];
        value = this.string();
      }
      fields_seen = true;
      list_bytes += name.length + value.length + hpack_entry_overhead_bytes;
      if (list_bytes > this.header_list_bytes_max) {
        throw new H2ConnectionError(h2_error.ENHANCE_YOUR_CALM, `a header list over ${this.header_list_bytes_max} bytes`);
      }
      onField(name, value);
    }
  }

  private lookup(index: number): HeaderField {
    if (index === 0) throw compressionError('header index 0');
    if (index <= static_table_length) return static_table[index - 1]!;
    const field = this.table.get(index - static_table_length);
    if (field === undefined) throw compressionError(`header index ${index} is beyond the tables`);
    return field;
  }

  /** An integer with an N-bit prefix (section 5.1). */
  private integer(prefix_bits: number): number {
    const src = this.src;
    const mask = (1 << prefix_bits) - 1;
    if (this.at >= src.length) throw compressionError('a header block ends inside an integer');
    let value = src[this.at++]! & mask;
    if (value < mask) return value;
    let shift = 0;
    for (;;) {
      if (this.at >= src.length) throw compressionError('a header block ends inside an integer');
      const b = src[this.at++]!;
      value += (b & 0x7f) * 2 ** shift;
      if (value > hpack_integer_max) throw compressionError('an integer in a header block is too large');
      if ((b & 0x80) === 0) return value;
      shift += 7;
    }
  }

  /** A string literal (section 5.2), Huffman-coded or not, as latin1 text. */
  private string(): string {
    if (this.at >= this.src.length) throw compressionError('a header block ends before a string');
    const huffman = (this.src[this.at]! & 0x80) !== 0;
    const length = this.integer(7);
    const start = this.at;
    const end = start + length;
    if (end > this.src.length) throw compressionError('a header block ends inside a string');
    this.at = end;
    return huffman ? huffmanDecode(this.src, start, end) : this.src.toString('latin1', start, end);
  }
}
