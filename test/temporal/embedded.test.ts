import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CypherError, open, type Db } from '../../src/index.js';

/**
 * Temporal labels in the embedded database: the same Cypher as over the wire, read at valid times
 * and by default at the wall clock (versions far in the past and future keep that deterministic),
 * and after a reopen that loads a checkpoint and replays the entries after it.
 */
const plain = (rows: readonly (readonly unknown[])[]) => rows.map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v === null ? null : String(v))));

describe('temporal labels, embedded', () => {
  let dir: string;
  let db: Db;
  // A checkpoint every few entries, so the reopen below loads one and replays the rest.
  const options = { checkpoint_interval_entries: 4 };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-temporal-embedded-'));
    db = await open(dir, options);
    await db.defineLabel({
      name: 'Role',
      properties: [{ name: 'title', type: { kind: 'scalar', scalar: 'STRING' }, required: true }],
      computed: [],
      mode: 'VALIDATED',
      temporal: true,
    });
    await db.defineEdgeType({ name: 'REPORTS_TO', properties: [], temporal: true, discriminator: '' });
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const titles = async (): Promise<unknown[]> => {
    const out: unknown[] = [];
    for (const year of [1999, 2000, 2005, 2012, 2999, 3001]) {
      const r = await db.query('USING valid_at(datetime({year: $y})) MATCH (r:Role {person: "ada"}) RETURN r.title, toString(r.valid_to)', { y: BigInt(year) });
      out.push([year, ...(plain(r.rows)[0] ?? ['none'])]);
    }
    return out;
  };
  const expected = [
    [1999, 'none'],
    [2000, 'engineer', '2010-01-01T00:00Z'],
    [2005, 'engineer', '2010-01-01T00:00Z'],
    [2012, 'lead', '2999-01-01T00:00Z'],
    [2999, 'director', null],
    [3001, 'director', null],
  ];

  it('versions at three valid_from read at several valid times; by default the one valid now', async () => {
    await db.query("CREATE (:Role {person: 'ada', title: 'engineer', valid_from: datetime('2000-01-01T00:00Z')})");
    const [[id]] = (await db.query("MATCH (r:Role {person: 'ada'}) RETURN id(r)")).rows as [[bigint]];
    const written_ts = db.database.latestCommitted().node(Number(id))!.ts;
    await db.query("MATCH (r:Role {person: 'ada'}) SET r.valid_from = datetime('2010-01-01T00:00Z'), r.title = 'lead'");
    await db.query("MATCH (r:Role {person: 'ada'}) SET r.valid_from = datetime('2999-01-01T00:00Z'), r.title = 'director'");
    expect(await titles()).toEqual(expected);
    // The two axes apart: as the database knew it after the first write, 3001 was still the engineer's.
    const known = await db.query('USING valid_at(datetime({year: 3001})) AS OF TIMESTAMP $ts MATCH (r:Role {person: "ada"}) RETURN r.title', { ts: BigInt(written_ts) });
    expect(plain(known.rows)).toEqual([['engineer']]);
    // Now lies between 2010 and 2999: the current version is the lead, though the director is stored newest.
    expect(plain((await db.query("MATCH (r:Role {person: 'ada'}) RETURN r.title")).rows)).toEqual([['lead']]);
    // A writing statement reads the stored (newest) version.
    expect(plain((await db.query("MATCH (r:Role {person: 'ada'}) SET r.seen = true RETURN r.title")).rows)).toEqual([['director']]);
  });

  it('an index of a temporal label holds the newest version; a read at a valid time finds older values all the same', async () => {
    await db.query('CREATE INDEX role_title ON Role(title)');
    await db.query("CREATE (:Role {person: 'bo', title: 'clerk', valid_from: datetime('2000-01-01T00:00Z')})");
    // Written behind the newest version, 'intern' was never a stored value: no index entry names it.
    await db.query("MATCH (r:Role {person: 'bo'}) SET r.valid_from = datetime('1990-01-01T00:00Z'), r.title = 'intern'");
    const who = async (title: string, year: number) =>
      plain((await db.query('USING valid_at(datetime({year: $y})) MATCH (r:Role {title: $t}) RETURN r.person', { t: title, y: BigInt(year) })).rows);
    expect(await who('intern', 1995)).toEqual([['bo']]);
    expect(await who('intern', 2001)).toEqual([]);
    expect(await who('engineer', 2005)).toEqual([['ada']]);
    expect(await who('director', 2005)).toEqual([]);
    expect(await who('director', 3000)).toEqual([['ada']]);
    // A writing statement reads the stored newest version, through the index.
    expect(plain((await db.query("MATCH (r:Role {title: 'director'}) SET r.checked = true RETURN r.person")).rows)).toEqual([['ada']]);
  });

  it('temporal edges between one pair end where the next begins', async () => {
    await db.query(
      "CREATE (a:Person {name: 'ann'}), (b:Person {name: 'bob'}), (c:Person {name: 'cy'}), (a)-[:REPORTS_TO {valid_from: datetime('2001-01-01T00:00Z')}]->(b), (a)-[:REPORTS_TO {valid_from: datetime('2001-01-01T00:00Z')}]->(c)",
    );
    await db.query("MATCH (a:Person {name: 'ann'}), (b:Person {name: 'bob'}) CREATE (a)-[:REPORTS_TO {valid_from: datetime('2003-01-01T00:00Z')}]->(b)");
    const managers = async (year: number) =>
      plain((await db.query("USING valid_at(datetime({year: $y})) MATCH (:Person {name: 'ann'})-[r:REPORTS_TO]->(m) RETURN m.name, toString(r.valid_to) ORDER BY m.name", { y: BigInt(year) })).rows);
    expect(await managers(2000)).toEqual([]);
    expect(await managers(2002)).toEqual([['bob', '2003-01-01T00:00Z'], ['cy', null]]);
    expect(await managers(2004)).toEqual([['bob', null], ['cy', null]]);
    await expect(db.query("MATCH (a:Person {name: 'ann'}), (b:Person {name: 'bob'}) CREATE (a)-[:REPORTS_TO {valid_from: datetime('2003-01-01T00:00Z')}]->(b)")).rejects.toMatchObject({
      reason: 'EDGE_EXISTS',
    });
  });

  it('valid_at is checked when the statement is compiled and when it runs', async () => {
    await expect(db.query('USING valid_at() MATCH (r:Role) RETURN r')).rejects.toBeInstanceOf(CypherError);
    await expect(db.query('MATCH (r:Role) USING valid_at(r.valid_from) RETURN r')).rejects.toMatchObject({ detail: 'NonConstantExpression' });
    await expect(db.query('USING valid_at($t) MATCH (r:Role) RETURN r', { t: 'soon' })).rejects.toMatchObject({ detail: 'InvalidArgumentValue' });
    await expect(db.query("USING valid_at(datetime('2001-01-01T00:00Z')) CREATE (:Role {title: 'x'})")).rejects.toMatchObject({ detail: 'InvalidClauseComposition' });
  });

  it('a reopen loads a checkpoint, replays the entries after it, and reads every version as before', async () => {
    await db.close();
    expect(readdirSync(join(dir, 'checkpoints')).some((f) => f.endsWith('.ckpt'))).toBe(true);
    db = await open(dir, options);
    expect(await titles()).toEqual(expected);
    expect(plain((await db.query("MATCH (r:Role {person: 'ada'}) RETURN r.title, r.seen")).rows)).toEqual([['lead', null]]);
  });
});
