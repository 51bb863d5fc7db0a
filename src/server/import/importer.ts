import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { invalidArgument } from '../../common/errors.js';
import type { PropertyValue } from '../../common/property-value.js';
import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { BulkLoad, PropertyEntries } from '../../log/events.js';
import { checkBulk } from '../../projections/bulk/bulk-apply.js';
import { refusalError } from '../database.js';
import { BadRows, bad_tolerance_default, type BadRow } from './bad-rows.js';
import { CsvError, CsvReader } from './csv-reader.js';
import { HeaderError, parseHeader, type FileKind, type HeaderColumn } from './header.js';
import { openTarget, type ImportTarget } from './import-target.js';
import { IntegerIds } from './integer-ids.js';
import { TextIds } from './text-ids.js';
import { PartBuilder } from './part-builder.js';
import { ProgressMeter, type ImportProgress } from './progress.js';
import { RowChecks } from './row-checks.js';
import { convert } from './values.js';

/**
 * `weft import` and `importCsv`: nodes and relationships from CSV files into a new or an existing
 * data directory, as neo4j-admin import reads them (docs/import.md). Rows become columns of
 * `bulk_load` entries, a few large entries per import. They are checked here and applied at the next
 * open, by replay: the projections and indexes are built once, there, and checkpointed at that
 * member's next checkpoint. Building them here too would only be thrown away (docs/import.md).
 */
export interface NodeInput {
  /** Labels every node of these files gets, besides a :LABEL column's. */
  readonly labels: readonly string[];
  /** Read as one: the first line of the first file is the header. */
  readonly files: readonly string[];
}

export interface RelationshipInput {
  /** The type of rows without a :TYPE column (or with it empty). */
  readonly type?: string;
  readonly files: readonly string[];
}

export interface ImportOptions {
  readonly nodes: readonly NodeInput[];
  readonly relationships?: readonly RelationshipInput[];
  /** One character; `\t` or `TAB` for tabs. Default `,`. */
  readonly delimiter?: string;
  /** Separates the elements of an array field. Default `;`. */
  readonly array_delimiter?: string;
  /** How ID fields are compared and stored: as strings (default) or as 64-bit integers. */
  readonly id_type?: 'string' | 'integer';
  /** A relationship whose start or end node is not in the import is a bad row instead of an error. */
  readonly skip_bad_relationships?: boolean;
  /** Bad rows allowed before the import stops and writes nothing. Default 1000. */
  readonly bad_tolerance?: number;
  /** Where the bad rows are listed (`file:line: reason`); none when absent. */
  readonly report_file?: string;
  /** Import into a database that already exists (it must not be open elsewhere). */
  readonly into_existing?: boolean;
  /** Rows per log entry (nodes and relationships together). Default 250,000. */
  readonly batch_rows?: number;
  readonly on_progress?: (p: ImportProgress) => void;
}

export interface ImportSummary {
  readonly data_dir: string;
  readonly nodes: number;
  readonly relationships: number;
  readonly bad_rows: readonly BadRow[];
  /** Log entries written for the import. */
  readonly entries: number;
  readonly read_ms: number;
  /** From the last row read to the last part journaled (the parts before it are written while reading). */
  readonly write_ms: number;
  readonly total_ms: number;
}

export const import_batch_rows_default = 250_000;
/** A part is cut before its estimated size passes this, far below the log's 256 MiB entry limit. */
export const import_part_bytes_max = 64 * 1024 * 1024;
const journaled: ConcernWait = { acks: 1, level: 'journal', timeout_ms: 0 };
/** Rows between progress checks. */
const tick_rows = 4096;

export async function importCsv(dataDir: string, options: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const delimiter = delimiterByte(options.delimiter ?? ',');
  const arrayDelimiter = options.array_delimiter ?? ';';
  if (arrayDelimiter === '') throw invalidArgument('the array delimiter must not be empty', 'IMPORT_INPUT_INVALID');
  const inputs = [...options.nodes.map((n) => n.files), ...(options.relationships ?? []).map((r) => r.files)].flat();
  if (options.nodes.length === 0 && (options.relationships ?? []).length === 0) throw invalidArgument('nothing to import: give --nodes or --relationships files', 'IMPORT_INPUT_INVALID');
  for (const f of inputs) if (!existsSync(f)) throw invalidArgument(`input file ${f} does not exist`, 'IMPORT_INPUT_INVALID', { file: f });
  const target = await openTarget(dataDir, options.into_existing ?? false);
  const bad = new BadRows(options.bad_tolerance ?? bad_tolerance_default);
  try {
    const run = new ImportRun(target, options, delimiter, arrayDelimiter, bad, inputs.reduce((s, f) => s + statSync(f).size, 0));
    const t = await run.run();
    await target.db.close();
    target.publish();
    return { data_dir: dataDir, ...t, bad_rows: bad.rows, total_ms: performance.now() - started };
  } catch (e) {
    await target.db.close().catch(() => undefined);
    target.discard();
    throw e;
  } finally {
    if (options.report_file !== undefined) bad.writeReport(options.report_file);
  }
}

function delimiterByte(d: string): number {
  const text = d === 'TAB' || d === '\\t' ? '\t' : d;
  if (text.length !== 1 || text.charCodeAt(0) > 0x7f || text === '"' || text === '\n' || text === '\r') {
    throw invalidArgument(`the delimiter must be one ASCII character other than a quote or a line break, got '${d}'`, 'IMPORT_INPUT_INVALID');
  }
  return text.charCodeAt(0);
}

/** One import from the first row to its last part journaled. */
class ImportRun {
  private readonly load = randomBytes(16);
  private part: PartBuilder;
  private partNumber = 0;
  /** ID space -> id -> node id: integer ids (`--id-type integer`) and text ids, each in typed tables where they can. */
  private readonly integerSpaces = new Map<string, IntegerIds>();
  private readonly textSpaces = new Map<string, TextIds>();
  private readonly checks: RowChecks;
  private readonly meter: ProgressMeter;
  private readonly batchRows: number;
  private nodes = 0;
  private relationships = 0;
  /** The parts written so far, in order: the last one is checked against them all before it is written. */
  private readonly parts: BulkLoad[] = [];
  /** Parts proposed and not yet known to be journaled. */
  private readonly inFlight: Promise<void>[] = [];
  /** The first failure of a part in flight. */
  private failure: unknown;

  constructor(
    private readonly target: ImportTarget,
    private readonly options: ImportOptions,
    private readonly delimiter: number,
    private readonly arrayDelimiter: string,
    private readonly bad: BadRows,
    bytesTotal: number,
  ) {
    const sm = target.db.sm;
    this.part = new PartBuilder(sm.graph.nextNodeId, sm.graph.nextEdgeId);
    this.checks = new RowChecks(sm);
    this.meter = new ProgressMeter(bytesTotal, options.on_progress);
    this.batchRows = options.batch_rows ?? import_batch_rows_default;
    if (!(this.batchRows >= 1)) throw invalidArgument(`batch_rows must be at least 1, got ${this.batchRows}`, 'IMPORT_INPUT_INVALID');
  }

  async run(): Promise<Omit<ImportSummary, 'data_dir' | 'bad_rows' | 'total_ms'>> {
    const t0 = performance.now();
    this.meter.enter('nodes');
    for (const input of this.options.nodes) {
      // Sorted once: rows without a :LABEL value share this array (the part keys label sets by it).
      const base = [...new Set(input.labels)].sort();
      await this.readGroup(input.files, 'nodes', (row, header) => this.nodeRow(row, header, base));
    }
    this.meter.nodes = this.nodes;
    this.meter.enter('relationships');
    for (const input of this.options.relationships ?? []) {
      await this.readGroup(input.files, 'relationships', (row, header) => this.relationshipRow(row, header, input.type));
    }
    const t1 = performance.now();
    this.meter.nodes = this.nodes;
    this.meter.relationships = this.relationships;
    this.meter.enter('write');
    const entries = this.partNumber + (this.part.rows > 0 || this.partNumber > 0 ? 1 : 0);
    // The last part is written even when empty, when earlier parts wait for it.
    if (entries > 0) await this.flush(true);
    const t2 = performance.now();
    this.meter.enter('done');
    return { nodes: this.nodes, relationships: this.relationships, entries, read_ms: t1 - t0, write_ms: t2 - t1 };
  }

  /** Reads the files of one --nodes or --relationships group; the header is the first line of the first. */
  private async readGroup(files: readonly string[], kind: FileKind, onRow: (row: CsvReader, header: readonly HeaderColumn[]) => void): Promise<void> {
    let header: HeaderColumn[] | undefined;
    for (const file of files) {
      const reader = new CsvReader(file, this.delimiter);
      try {
        if (header === undefined) {
          if (!reader.next()) throw new HeaderError(`${file}: the file is empty; the first line must be the header`);
          const fields: string[] = [];
          for (let i = 0; i < reader.fields; i++) fields.push(reader.text(i));
          header = parseHeader(fields, kind, file);
        }
        let sinceTick = 0;
        while (reader.next()) {
          if (reader.fields !== header.length) {
            this.badRow(reader, `${reader.fields} fields, the header has ${header.length}`);
          } else {
            onRow(reader, header);
          }
          if (this.part.rows >= this.batchRows || this.part.estimatedBytes >= import_part_bytes_max) await this.flush(false);
          if (++sinceTick === tick_rows) {
            sinceTick = 0;
            this.meter.nodes = this.nodes;
            this.meter.relationships = this.relationships;
            this.meter.tick(reader.consumed);
          }
        }
        this.meter.bytesBefore += reader.consumed;
      } catch (e) {
        if (e instanceof HeaderError || e instanceof CsvError) throw invalidArgument(e.message, 'IMPORT_INPUT_INVALID', { file });
        throw e;
      } finally {
        reader.close();
      }
    }
  }

  private badRow(row: CsvReader, reason: string): void {
    this.meter.badRows++;
    this.bad.add({ file: row.path, line: row.line, reason });
  }

  private nodeRow(row: CsvReader, header: readonly HeaderColumn[], base: readonly string[]): void {
    let labels: readonly string[] = base;
    const props: [string, PropertyValue][] = [];
    let idKey: string | number | undefined;
    let space = '';
    for (let i = 0; i < header.length; i++) {
      const col = header[i]!;
      switch (col.kind) {
        case 'ignore':
        case 'start_id':
        case 'end_id':
        case 'type':
          break;
        case 'label':
          if (!row.absent(i)) labels = withLabels(labels, row.text(i).split(this.arrayDelimiter));
          break;
        case 'id': {
          if (row.absent(i)) break;
          const text = row.text(i);
          const key = this.idKey(text);
          if (key === undefined) return this.badRow(row, `ID '${text}' is not an integer (--id-type integer)`);
          idKey = key;
          space = col.space;
          if (col.name !== '') props.push([col.name, typeof key === 'number' ? BigInt(text.trim()) : key]);
          break;
        }
        case 'property': {
          if (row.absent(i)) break;
          const v = convert(row.text(i), col.scalar, col.array, this.arrayDelimiter);
          if (!v.ok) return this.badRow(row, `${col.name}: ${v.reason}`);
          props.push([col.name, v.value]);
          break;
        }
      }
    }
    if (idKey !== undefined && this.lookup(space, idKey) !== undefined) return this.badRow(row, `duplicate ID '${String(idKey)}' in ID space ${spaceName(space)}`);
    const id = this.part.firstNodeId + this.part.nodeCount;
    let checked: PropertyEntries = props;
    if (this.checks.governsNode(labels)) {
      const c = this.checks.node(id, labels, props);
      if (!c.ok) return this.badRow(row, c.reason);
      checked = c.props;
    }
    this.part.addNode(labels, checked);
    if (idKey !== undefined) this.bind(space, idKey, id);
    this.nodes++;
  }

  private relationshipRow(row: CsvReader, header: readonly HeaderColumn[], defaultType: string | undefined): void {
    let source: number | undefined;
    let target: number | undefined;
    let type = defaultType;
    let props: [string, PropertyValue][] | undefined;
    for (let i = 0; i < header.length; i++) {
      const col = header[i]!;
      switch (col.kind) {
        case 'ignore':
        case 'id':
        case 'label':
          break;
        case 'start_id':
        case 'end_id': {
          const node = this.endpoint(row, i, col.space);
          if (node === undefined) {
            const reason = `${col.kind === 'start_id' ? 'start' : 'end'} node '${row.absent(i) ? '' : row.text(i)}' is not in ID space ${spaceName(col.space)}`;
            if (this.options.skip_bad_relationships !== true) {
              throw invalidArgument(`${row.path}:${row.line}: ${reason} (pass --skip-bad-relationships to leave such rows out)`, 'IMPORT_INPUT_INVALID', {
                file: row.path,
                line: String(row.line),
              });
            }
            return this.badRow(row, reason);
          }
          if (col.kind === 'start_id') source = node;
          else target = node;
          break;
        }
        case 'type':
          if (!row.absent(i) && row.text(i) !== '') type = row.text(i);
          break;
        case 'property': {
          if (row.absent(i)) break;
          const v = convert(row.text(i), col.scalar, col.array, this.arrayDelimiter);
          if (!v.ok) return this.badRow(row, `${col.name}: ${v.reason}`);
          (props ??= []).push([col.name, v.value]);
          break;
        }
      }
    }
    if (type === undefined) return this.badRow(row, 'no relationship type: the row has no :TYPE value and its --relationships has none');
    let checked: PropertyEntries = props ?? NO_PROPS;
    if (this.checks.governsEdge(type)) {
      const c = this.checks.edge(this.part.firstEdgeId + this.part.edgeCount, type, source!, target!, checked);
      if (!c.ok) return this.badRow(row, c.reason);
      checked = c.props;
    }
    this.part.addEdge(type, source!, target!, checked);
    this.relationships++;
  }

  /** The node an endpoint field names in `space`; integer ids are read without making a string. */
  private endpoint(row: CsvReader, i: number, space: string): number | undefined {
    if (row.absent(i)) return undefined;
    if (this.options.id_type !== 'integer') {
      const ids = this.textSpaces.get(space);
      const n = row.canonicalInteger(i);
      return Number.isNaN(n) ? ids?.get(row.text(i)) : ids?.getCanonical(n);
    }
    const v = row.integer(i);
    return Number.isNaN(v) ? undefined : this.integerSpaces.get(space)?.get(v);
  }

  private lookup(space: string, key: string | number): number | undefined {
    return typeof key === 'number' ? this.integerSpaces.get(space)?.get(key) : this.textSpaces.get(space)?.get(key);
  }

  private bind(space: string, key: string | number, node: number): void {
    if (typeof key === 'number') {
      let ids = this.integerSpaces.get(space);
      if (ids === undefined) this.integerSpaces.set(space, (ids = new IntegerIds()));
      ids.set(key, node);
    } else {
      let ids = this.textSpaces.get(space);
      if (ids === undefined) this.textSpaces.set(space, (ids = new TextIds()));
      ids.set(key, node);
    }
  }

  private idKey(text: string): string | number | undefined {
    if (this.options.id_type !== 'integer') return text;
    const t = text.trim();
    if (!/^[+-]?\d+$/.test(t)) return undefined;
    const n = Number(t);
    return Number.isSafeInteger(n) ? n : undefined;
  }

  /**
   * Writes the part as one log entry (applied with the last one) and starts the next. Only the last
   * part is waited for: the parts are one unit, durable together once the last one is journaled, and
   * reading goes on while an earlier part is written (the log's group commit keeps their order).
   * The last part is checked as its apply will check it, against the state this import holds alone,
   * then written without being applied here: the import applies when the database next opens.
   */
  private async flush(last: boolean): Promise<void> {
    const part = this.part;
    const event = part.toEvent(this.load, this.partNumber++, last);
    this.parts.push(event);
    this.part = new PartBuilder(part.firstNodeId + part.nodeCount, part.firstEdgeId + part.edgeCount);
    if (last) {
      await Promise.all(this.inFlight);
      if (this.failure !== undefined) throw this.failure;
      const refusal = checkBulk(this.parts, this.target.db.sm.graph);
      if (refusal !== undefined) throw refusalError(refusal);
      await this.target.db.appendUnapplied(event, journaled);
      return;
    }
    const written = this.target.db.submit(event, journaled);
    // A failure is kept and raised by the last part's wait, so no rejection is left unhandled.
    this.inFlight.push(written.then(() => undefined, (e: unknown) => void (this.failure ??= e)));
    // One turn of the event loop, so the log starts writing this part before reading resumes.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

const NO_PROPS: PropertyEntries = [];

/** `labels` (sorted, distinct) with `more` added, sorted and distinct; `labels` itself when nothing is new. */
function withLabels(labels: readonly string[], more: readonly string[]): readonly string[] {
  let out: string[] | undefined;
  for (const l of more) if (l !== '' && !labels.includes(l) && out?.includes(l) !== true) (out ??= [...labels]).push(l);
  return out === undefined ? labels : out.sort();
}

function spaceName(space: string): string {
  return space === '' ? '(default)' : space;
}
