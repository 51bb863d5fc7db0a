/**
 * Kùzu (an embedded graph database with a Cypher dialect) as a `SocialEngine`, for comparison. The
 * `kuzu` npm package is not a dependency of the project: it is installed on first use into a scratch
 * folder under the OS temp directory and loaded from there. The graph goes in through CSV files and
 * COPY, Kùzu's bulk path; `id` is the Person table's primary key.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sinceOf, type SocialEngine, type SocialGraph, type SocialParams, type SocialQuery } from './cypher-social-graph.js';

export const kuzu_version = '0.11.3';
const scratch = join(tmpdir(), `weft-bench-kuzu-${kuzu_version}`);

/** The slice of Kùzu's Node.js API the benchmark uses. */
interface KuzuResult {
  getAll(): Promise<Record<string, unknown>[]>;
  close(): void;
}
interface KuzuPrepared {
  readonly __prepared: unique symbol;
}
interface KuzuConnection {
  query(cypher: string): Promise<KuzuResult>;
  prepare(cypher: string): Promise<KuzuPrepared>;
  execute(prepared: KuzuPrepared, params: Record<string, unknown>): Promise<KuzuResult>;
  close(): Promise<void>;
}
interface KuzuDatabase {
  close(): Promise<void>;
}
export interface KuzuModule {
  Database: new (path: string) => KuzuDatabase;
  Connection: new (db: KuzuDatabase) => KuzuConnection;
}

/** Installs the package into the scratch folder once (npm 11 runs its install script only when allowed). */
export function loadKuzu(): KuzuModule {
  if (!existsSync(join(scratch, 'node_modules', 'kuzu', 'package.json'))) {
    mkdirSync(scratch, { recursive: true });
    const pkg = { name: 'kuzu-scratch', version: '1.0.0', private: true, allowScripts: { kuzu: true } };
    writeFileSync(join(scratch, 'package.json'), `${JSON.stringify(pkg)}\n`);
    console.error(`installing kuzu@${kuzu_version} into ${scratch}`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', `kuzu@${kuzu_version}`], { cwd: scratch, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return createRequire(join(scratch, 'package.json'))('kuzu') as KuzuModule;
}

export class KuzuSocialEngine implements SocialEngine {
  readonly name = 'kuzu';
  private readonly dir = mkdtempSync(join(tmpdir(), 'weft-bench-kuzu-db-'));
  private db: KuzuDatabase | undefined;
  private conn: KuzuConnection | undefined;
  /** Prepared once per query text, as Weft's engines cache their plans. */
  private readonly prepared = new Map<string, KuzuPrepared>();
  /** Installed (if needed) at construction, so the install does not count as load time. */
  private readonly kuzu = loadKuzu();

  async load(graph: SocialGraph): Promise<void> {
    const kuzu = this.kuzu;
    this.db = new kuzu.Database(join(this.dir, 'db'));
    this.conn = new kuzu.Connection(this.db);
    const persons = join(this.dir, 'persons.csv');
    const knows = join(this.dir, 'knows.csv');
    // Names and cities hold no commas or quotes, so plain joins are valid CSV.
    writeFileSync(persons, graph.persons.map((p) => `${p.id},${p.name},${p.age},${p.city}\n`).join(''));
    writeFileSync(knows, graph.knows.map(([a, b]) => `${a},${b},${sinceOf(a, b)}\n`).join(''));
    await this.exec('CREATE NODE TABLE Person(id INT64, name STRING, age INT64, city STRING, PRIMARY KEY(id))');
    await this.exec('CREATE REL TABLE KNOWS(FROM Person TO Person, since INT64)');
    await this.exec(`COPY Person FROM '${persons}' (header=false)`);
    await this.exec(`COPY KNOWS FROM '${knows}' (header=false)`);
    // Cypher's variable-length patterns never repeat a relationship; Kùzu's default walks may.
    await this.exec("CALL recursive_pattern_semantic='TRAIL'");
  }

  private async exec(cypher: string): Promise<void> {
    (await this.conn!.query(cypher)).close();
  }

  async run(query: SocialQuery, params: SocialParams): Promise<readonly (readonly unknown[])[]> {
    const cypher = query.kuzu ?? query.cypher;
    let prepared = this.prepared.get(cypher);
    if (prepared === undefined) {
      prepared = await this.conn!.prepare(cypher);
      this.prepared.set(cypher, prepared);
    }
    const result = await this.conn!.execute(prepared, params);
    const rows = await result.getAll();
    result.close();
    return rows.map((r) => Object.values(r));
  }

  async close(): Promise<void> {
    await this.conn?.close();
    await this.db?.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
