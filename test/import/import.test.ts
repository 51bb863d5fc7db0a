import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCsv, open, type Db } from '../../src/index.js';
import { isWeftError } from '../../src/common/errors.js';
import type { Value } from '../../src/common/values/value.js';

/**
 * `importCsv` (what `weft import` runs) into new and existing data directories: header mapping, ID
 * spaces, types, bad rows and their tolerance, the catalog's rules, replay, and Cypher over the result.
 */
const root = mkdtempSync(join(tmpdir(), 'weft-import-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function scenario(files: Record<string, string>): { dir: string; file: (name: string) => string; db: string } {
  const dir = join(root, `s${++n}`);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, `s${n}-${name}`), text);
  return { dir, file: (name) => join(root, `s${n}-${name}`), db: join(dir, 'db') };
}

async function rows(db: Db, cypher: string): Promise<readonly (readonly Value[])[]> {
  return (await db.query(cypher)).rows;
}

/** The checkpoint files of a data directory. */
function checkpointFiles(db: string): string[] {
  const dir = join(db, 'checkpoints');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.ckpt')) : [];
}

/** Every node and edge with its labels or type, properties and endpoints, in id order: a graph to compare. */
async function dump(db: Db): Promise<string> {
  const nodes = await rows(db, 'MATCH (n) RETURN id(n), labels(n), properties(n) ORDER BY id(n)');
  const edges = await rows(db, 'MATCH (a)-[r]->(b) RETURN id(r), type(r), id(a), id(b), properties(r) ORDER BY id(r)');
  return JSON.stringify([nodes, edges], (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v instanceof Map ? [...v].sort() : v));
}

describe('weft import', () => {
  it('loads nodes and relationships with typed properties, labels from the flag and the :LABEL column, and two ID spaces that share id text', async () => {
    const s = scenario({
      'people.csv': 'id:ID(Person),name,age:int,score:float,active:boolean,tags:string[],:LABEL\n1,Ada,36,9.5,true,x;y,Admin\n2,"Lovelace, B",41,,false,,\n',
      'cities.csv': 'id:ID(City),name\n1,Paris\n2,Oslo\n',
      'lives.csv': ':START_ID(Person),:END_ID(City),since:int\n1,2,2001\n2,1,\n',
      'knows.csv': ':START_ID(Person),:END_ID(Person),:TYPE\n1,2,KNOWS\n2,1,\n',
    });
    const summary = await importCsv(s.db, {
      nodes: [
        { labels: ['Person'], files: [s.file('people.csv')] },
        { labels: ['City'], files: [s.file('cities.csv')] },
      ],
      relationships: [
        { type: 'LIVES_IN', files: [s.file('lives.csv')] },
        { type: 'FOLLOWS', files: [s.file('knows.csv')] },
      ],
    });
    expect(summary).toMatchObject({ nodes: 4, relationships: 4, bad_rows: [], entries: 1 });
    const db = await open(s.db);
    try {
      expect(await rows(db, 'MATCH (p:Person) RETURN p.name, labels(p), p.age, p.score, p.active, p.tags, p.id ORDER BY p.name')).toEqual([
        ['Ada', ['Admin', 'Person'], 36n, 9.5, true, ['x', 'y'], '1'],
        ['Lovelace, B', ['Person'], 41n, null, false, null, '2'],
      ]);
      // Person 1 and City 1 are different nodes: each ID space maps its own text.
      expect(await rows(db, 'MATCH (p:Person)-[r:LIVES_IN]->(c:City) RETURN p.name, c.name, r.since ORDER BY p.name')).toEqual([
        ['Ada', 'Oslo', 2001n],
        ['Lovelace, B', 'Paris', null],
      ]);
      // A :TYPE value wins over the flag's type; an empty one takes the flag's.
      expect(await rows(db, 'MATCH (a)-[r]->(b:Person) RETURN a.name, type(r) ORDER BY a.name')).toEqual([
        ['Ada', 'KNOWS'],
        ['Lovelace, B', 'FOLLOWS'],
      ]);
    } finally {
      await db.close();
    }
  });

  it('loads point columns and arrays of points, which read back as points after the import replays and after its checkpoint', async () => {
    const s = scenario({
      'places.csv': 'id:ID,name,at:point,route:point[]\n1,Malmö,"{latitude: 55.611784, longitude: 12.994341}","{x: 0, y: 0};{x: 3, y: 4}"\n2,Nowhere,"{latitude: 95, longitude: 0}",\n',
    });
    const summary = await importCsv(s.db, { nodes: [{ labels: ['Place'], files: [s.file('places.csv')] }] });
    expect(summary.nodes).toBe(1);
    expect(summary.bad_rows.map((b) => b.reason)).toEqual(["at: '{latitude: 95, longitude: 0}' is not a point"]);
    for (let round = 0; round < 2; round++) {
      const db = await open(s.db);
      try {
        expect(
          await rows(db, "MATCH (p:Place) RETURN p.name, toString(p.at), p.at.srid, point.distance(p.route[0], p.route[1]), point.withinBBox(p.at, point({longitude: 12, latitude: 55}), point({longitude: 13, latitude: 56}))"),
        ).toEqual([['Malmö', "point({x: 12.994341, y: 55.611784, crs: 'wgs-84'})", 4326n, 5, true]]);
      } finally {
        await db.close();
      }
      // The first open replayed the import; its close wrote the checkpoint the second open reads.
      if (round === 0) expect(checkpointFiles(s.db).length).toBeGreaterThan(0);
    }
  });

  it('reads the header from a separate file, other delimiters, and integer ids stored as integers', async () => {
    const s = scenario({ 'h.csv': 'uid:ID|name\n', 'p.csv': '10|a\n20|b\n', 'rh.csv': ':START_ID|:END_ID\n', 'r.csv': '10|20\n' });
    await importCsv(s.db, {
      nodes: [{ labels: ['U'], files: [s.file('h.csv'), s.file('p.csv')] }],
      relationships: [{ type: 'R', files: [s.file('rh.csv'), s.file('r.csv')] }],
      delimiter: '|',
      id_type: 'integer',
    });
    const db = await open(s.db);
    try {
      expect(await rows(db, 'MATCH (a:U)-[:R]->(b:U) RETURN a.uid, b.uid, a.name')).toEqual([[10n, 20n, 'a']]);
    } finally {
      await db.close();
    }
  });

  it('leaves bad rows out and reports each with its file, line and reason; the report file lists them', async () => {
    const s = scenario({
      'p.csv': 'id:ID,age:int\n1,30\n2,old\n1,40\n3\n"4",50\n',
      'r.csv': ':START_ID,:END_ID\n1,4\n1,99\n',
    });
    const report = join(root, 'bad.report');
    const summary = await importCsv(s.db, {
      nodes: [{ labels: ['P'], files: [s.file('p.csv')] }],
      relationships: [{ type: 'R', files: [s.file('r.csv')] }],
      skip_bad_relationships: true,
      report_file: report,
    });
    expect(summary.nodes).toBe(2);
    expect(summary.relationships).toBe(1);
    expect(summary.bad_rows).toEqual([
      { file: s.file('p.csv'), line: 3, reason: "age: 'old' is not an int" },
      { file: s.file('p.csv'), line: 4, reason: "duplicate ID '1' in ID space (default)" },
      { file: s.file('p.csv'), line: 5, reason: '1 fields, the header has 2' },
      { file: s.file('r.csv'), line: 3, reason: "end node '99' is not in ID space (default)" },
    ]);
    expect(readFileSync(report, 'utf8').split('\n')[0]).toBe(`${s.file('p.csv')}:3: age: 'old' is not an int`);
  });

  it('stops past the bad-row tolerance and leaves no database at the target', async () => {
    const s = scenario({ 'p.csv': 'id:ID,age:int\n1,a\n2,b\n3,c\n4,4\n' });
    const failed = await importCsv(s.db, { nodes: [{ labels: ['P'], files: [s.file('p.csv')] }], bad_tolerance: 2 }).catch((e: unknown) => e);
    expect(isWeftError(failed) && failed.reason).toBe('IMPORT_TOO_MANY_BAD_ROWS');
    expect(existsSync(s.db)).toBe(false);
    expect(existsSync(s.dir) ? readdirSync(s.dir) : []).toEqual([]);
  });

  it('refuses a relationship to an unknown node unless told to skip such rows, and then nothing is imported', async () => {
    const s = scenario({ 'p.csv': 'id:ID\n1\n', 'r.csv': ':START_ID,:END_ID\n1,2\n' });
    const failed = await importCsv(s.db, {
      nodes: [{ labels: ['P'], files: [s.file('p.csv')] }],
      relationships: [{ type: 'R', files: [s.file('r.csv')] }],
    }).catch((e: unknown) => e);
    expect(isWeftError(failed) && failed.message).toMatch(/r\.csv:2: end node '2' is not in ID space \(default\)/);
    expect(existsSync(s.db)).toBe(false);
  });

  it('refuses to import into a database unless asked to, and then respects its schema modes and constraints', async () => {
    const s = scenario({
      'p.csv': 'email,name\na@x,dup-of-existing\nb@x,first\nb@x,dup-in-import\nc@x,ok\n',
      's.csv': 'code,extra\nk1,\nk2,undeclared\n',
    });
    const db = await open(s.db);
    await db.query('CREATE CONSTRAINT person_email FOR (p:Person) REQUIRE p.email IS UNIQUE');
    await db.query("CREATE (:Person {email: 'a@x', name: 'existing'})");
    await db.database.submit(
      { kind: 'label_defined', name: 'Strict', properties: [{ name: 'code', type: { kind: 'scalar', scalar: 'STRING' }, required: true }], computed: [], mode: 'STRICT', temporal: false },
      { acks: 1, level: 'journal', timeout_ms: 0 },
    );
    await db.close();

    const refused = await importCsv(s.db, { nodes: [{ labels: ['Person'], files: [s.file('p.csv')] }] }).catch((e: unknown) => e);
    expect(isWeftError(refused) && refused.reason).toBe('IMPORT_TARGET_NOT_EMPTY');

    const summary = await importCsv(s.db, {
      nodes: [
        { labels: ['Person'], files: [s.file('p.csv')] },
        { labels: ['Strict'], files: [s.file('s.csv')] },
      ],
      into_existing: true,
    });
    expect(summary.nodes).toBe(3);
    expect(summary.bad_rows.map((b) => [b.line, b.reason.split(':')[0]])).toEqual([
      [2, 'UNIQUE_VIOLATION'],
      [4, 'UNIQUE_VIOLATION'],
      [3, 'UNDECLARED_PROPERTY'],
    ]);
    const after = await open(s.db);
    try {
      expect(await rows(after, 'MATCH (p:Person) RETURN p.email, p.name ORDER BY p.email, p.name')).toEqual([
        ['a@x', 'existing'],
        ['b@x', 'first'],
        ['c@x', 'ok'],
      ]);
      expect(await rows(after, 'MATCH (s:Strict) RETURN s.code')).toEqual([['k1']]);
      // The unique index holds the imported nodes: a later write of a taken email is refused.
      await expect(after.query("CREATE (:Person {email: 'c@x'})")).rejects.toThrow(/UNIQUE|already holds/);
    } finally {
      await after.close();
    }
  });

  it('writes no checkpoint: the first open replays the import, its close checkpoints, and the graph from the checkpoint is the same', async () => {
    const people = ['id:ID,name,n:int', ...Array.from({ length: 300 }, (_, i) => `${i},p${i},${i * 7}`)].join('\n');
    const links = [':START_ID,:END_ID,w:float', ...Array.from({ length: 900 }, (_, i) => `${i % 300},${(i * 13) % 300},${i / 4}`)].join('\n');
    const s = scenario({ 'p.csv': people, 'r.csv': links });
    const summary = await importCsv(s.db, {
      nodes: [{ labels: ['N'], files: [s.file('p.csv')] }],
      relationships: [{ type: 'L', files: [s.file('r.csv')] }],
      batch_rows: 128,
    });
    expect(summary.entries).toBe(Math.ceil(1200 / 128));
    expect(checkpointFiles(s.db)).toEqual([]);
    let db = await open(s.db);
    const replayed = await dump(db);
    expect(await rows(db, 'MATCH (:N)-[l:L]->() RETURN count(l), sum(l.w)')).toEqual([[900n, (899 * 900) / 2 / 4]]);
    await db.close();
    expect(checkpointFiles(s.db)).toHaveLength(1);
    db = await open(s.db);
    try {
      expect(await dump(db)).toBe(replayed);
    } finally {
      await db.close();
    }
  });

  it('a checkpoint torn by a kill while it was written is passed over: the next open replays the import from the log', async () => {
    const s = scenario({ 'p.csv': 'id:ID,name\n1,a\n2,b\n3,c\n', 'r.csv': ':START_ID,:END_ID\n1,2\n2,3\n' });
    await importCsv(s.db, { nodes: [{ labels: ['P'], files: [s.file('p.csv')] }], relationships: [{ type: 'K', files: [s.file('r.csv')] }] });
    let db = await open(s.db);
    const replayed = await dump(db);
    await db.close();
    // What a kill leaves inside the checkpoint's write: a partial temporary file, and (were the write
    // not atomic) a checkpoint whose bytes stop short of its CRC.
    const [name] = checkpointFiles(s.db);
    const path = join(s.db, 'checkpoints', name!);
    const whole = readFileSync(path);
    writeFileSync(`${path}.tmp`, whole.subarray(0, whole.byteLength >> 1));
    writeFileSync(path, whole.subarray(0, whole.byteLength - 7));
    db = await open(s.db);
    try {
      expect(await dump(db)).toBe(replayed);
      expect(await rows(db, 'MATCH (:P)-[k:K]->() RETURN count(k)')).toEqual([[2n]]);
    } finally {
      await db.close();
    }
  });

  it('into a database with a B-tree index, the index holds the imported nodes once the import applies at the next open', async () => {
    const s = scenario({ 'p.csv': 'name\nann\nbob\n' });
    let db = await open(s.db);
    await db.query("CREATE (:P {name: 'old'})");
    await db.query('CREATE INDEX p_name FOR (p:P) ON (p.name)');
    await db.close();
    await importCsv(s.db, { nodes: [{ labels: ['P'], files: [s.file('p.csv')] }], into_existing: true });
    db = await open(s.db);
    try {
      expect(JSON.stringify(db.explain("MATCH (p:P {name: 'bob'}) RETURN p"))).toContain('NodeIndexSeek');
      expect(await rows(db, "MATCH (p:P {name: 'bob'}) RETURN p.name")).toEqual([['bob']]);
      expect(await rows(db, 'MATCH (p:P) RETURN count(p)')).toEqual([[3n]]);
    } finally {
      await db.close();
    }
  });

  it('answers Cypher over the imported graph: an index on an imported property seeks, two hops, aggregation', async () => {
    const s = scenario({
      'p.csv': 'id:ID,name,city\n1,a,X\n2,b,X\n3,c,Y\n4,d,Y\n',
      'r.csv': ':START_ID,:END_ID\n1,2\n2,3\n2,4\n3,4\n',
    });
    await importCsv(s.db, { nodes: [{ labels: ['P'], files: [s.file('p.csv')] }], relationships: [{ type: 'K', files: [s.file('r.csv')] }] });
    const db = await open(s.db);
    try {
      await db.query('CREATE INDEX p_name FOR (p:P) ON (p.name)');
      expect(JSON.stringify(db.explain("MATCH (p:P {name: 'a'}) RETURN p"))).toContain('NodeIndexSeek');
      expect(await rows(db, "MATCH (p:P {name: 'a'})-[:K]->()-[:K]->(f) RETURN f.name ORDER BY f.name")).toEqual([['c'], ['d']]);
      expect(await rows(db, 'MATCH (p:P)-[:K]->(f) RETURN p.city, count(f) ORDER BY p.city')).toEqual([
        ['X', 3n],
        ['Y', 1n],
      ]);
    } finally {
      await db.close();
    }
  });
});
