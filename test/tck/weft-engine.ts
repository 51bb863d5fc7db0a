import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { equals } from '../../src/common/values/equality.js';
import type { Value } from '../../src/common/values/value.js';
import type { EdgeState, NodeState } from '../../src/projections/graph/records.js';
import type { GraphReader } from '../../src/projections/graph/view.js';
import { any_type, float_type, integer_type, number_type, string_type, type StaticType } from '../../src/query/bind/static-type.js';
import { ProcedureRegistry } from '../../src/query/execute/procedures.js';
import { open, type Db } from '../../src/index.js';
import type {
  TckEngine,
  TckGraphState,
  TckNodeDescription,
  TckProcedure,
  TckRelationshipDescription,
  TckResult,
} from './engine.js';

/**
 * The TCK engine over Weft's embedded API. Each scenario gets a fresh database in its own directory
 * (on tmpfs when the machine has one, so the log's fsyncs cost nothing); opening one takes a few ms.
 * Entities a statement deleted are described from the snapshot taken just before it.
 */
export async function openWeftTckEngine(options: WeftTckOptions = {}): Promise<TckEngine> {
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  return new WeftTckEngine(mkdtempSync(join(base, 'weft-tck-')), options);
}

export interface WeftTckOptions {
  /** Where LOAD CSV resolves `file:///` URLs: scenarios read their CSV files from there. */
  readonly load_csv_import_dir?: string;
}

class WeftTckEngine implements TckEngine {
  private db: Db | undefined;
  private generation = 0;
  private readonly procedures = new ProcedureRegistry();
  private before: GraphReader | undefined;

  constructor(
    private readonly dir: string,
    private readonly options: WeftTckOptions,
  ) {}

  async reset(): Promise<void> {
    await this.closeDb();
    this.procedures.clear();
    const path = join(this.dir, String(this.generation++));
    mkdirSync(path, { recursive: true });
    this.db = await open(path, {
      procedures: this.procedures,
      memory_limit_bytes: 1024 * 1024 * 1024,
      ...(this.options.load_csv_import_dir !== undefined && { load_csv_import_dir: this.options.load_csv_import_dir }),
    });
    this.before = undefined;
  }

  private get current(): Db {
    if (this.db === undefined) throw new Error('reset() first');
    return this.db;
  }

  async execute(query: string, params: ReadonlyMap<string, Value>): Promise<TckResult> {
    const db = this.current;
    this.before = db.database.latestCommitted();
    const result = await db.query(query, Object.fromEntries(params));
    return { columns: result.columns, rows: result.rows };
  }

  async graphState(): Promise<TckGraphState> {
    const view = this.current.database.latestCommitted();
    const nodes = new Map<number, TckNodeDescription>();
    for (const n of view.nodes()) nodes.set(n.id, describeNode(n));
    const relationships = new Map<number, { type: string; properties: ReadonlyMap<string, Value> }>();
    for (const e of view.edges()) relationships.set(e.id, { type: e.type, properties: e.props });
    return { nodes, relationships };
  }

  async describeNode(id: number): Promise<TckNodeDescription> {
    const n = this.current.database.latestCommitted().node(id) ?? this.before?.node(id);
    if (n === undefined) throw new Error(`no node ${id}`);
    return describeNode(n);
  }

  async describeRelationship(id: number): Promise<TckRelationshipDescription> {
    const e: EdgeState | undefined = this.current.database.latestCommitted().edge(id) ?? this.before?.edge(id);
    if (e === undefined) throw new Error(`no relationship ${id}`);
    return { type: e.type, properties: e.props, start: e.source, end: e.target };
  }

  async registerProcedure(p: TckProcedure): Promise<void> {
    const inputs = p.inputs.length;
    this.procedures.register({
      name: p.name,
      inputs: p.inputs.map((x) => ({ name: x.name, type: staticType(x.type) })),
      outputs: p.outputs.map((x) => ({ name: x.name, type: staticType(x.type) })),
      call: (args) =>
        p.rows.filter((row) => row.slice(0, inputs).every((v, i) => equals(v, args[i] ?? null) === true || (v === null && args[i] === null))).map((row) => row.slice(inputs)),
    });
  }

  async close(): Promise<void> {
    await this.closeDb();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async closeDb(): Promise<void> {
    if (this.db === undefined) return;
    const path = join(this.dir, String(this.generation - 1));
    await this.db.close(0);
    this.db = undefined;
    rmSync(path, { recursive: true, force: true });
  }
}

function describeNode(n: NodeState): TckNodeDescription {
  return { labels: n.labels, properties: n.props };
}

function staticType(t: string): StaticType {
  switch (t.replace('?', '')) {
    case 'INTEGER':
      return integer_type;
    case 'FLOAT':
      return float_type;
    case 'NUMBER':
      return number_type;
    case 'STRING':
      return string_type;
    default:
      return any_type;
  }
}
