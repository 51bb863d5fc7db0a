import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, float, Node, Point, Relationship, Temporal, type Change, type WeftClient } from '../../src/client/index.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** The client SDK against a real `weft serve`, used the way an application uses it. */
describe('weft/client', () => {
  let dir: string;
  let server: ServerProcess;
  let db: WeftClient;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-sdk-'));
    // A short drain: the restart below stops a member with a change feed open, which never ends by itself.
    server = await startServerProcess(join(dir, 'data'), ['--shutdown-drain-ms', '300']);
    db = connect(server.grpc);
  });
  afterAll(async () => {
    db.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('plain JavaScript values go in as parameters and come back typed', async () => {
    const when = new Date('2024-02-29T12:30:05.123Z');
    const params = {
      name: 'Ada',
      age: 36,
      big: 2n ** 60n,
      score: 0.5,
      whole: float(2),
      ok: true,
      none: null,
      tags: ['a', 'b'],
      address: { city: 'London', zip: 12345 },
      at: when,
      raw: new Uint8Array([1, 2, 255]),
    };
    const res = await db.query<{ p: Node; age: number; big: bigint; score: number; whole: number; tags: string[]; address: { city: string; zip: number }; at: Temporal; raw: Uint8Array; none: null; ok: boolean }>(
      'CREATE (p:Person {name: $name, age: $age, big: $big, tags: $tags}) RETURN p, p.age AS age, $big AS big, $score AS score, $whole AS whole, $tags AS tags, $address AS address, $at AS at, $raw AS raw, $none AS none, $ok AS ok',
      params,
    );
    expect(res.columns).toEqual(['p', 'age', 'big', 'score', 'whole', 'tags', 'address', 'at', 'raw', 'none', 'ok']);
    expect(res.stats.nodesCreated).toBe(1);
    expect(res.stats.commitTs).toBeGreaterThan(0n);
    const row = res.rows[0]!;
    expect(row.p).toBeInstanceOf(Node);
    expect(row.p.labels).toEqual(['Person']);
    expect(row.p.properties).toEqual({ name: 'Ada', age: 36, big: 2n ** 60n, tags: ['a', 'b'] });
    expect(row.age).toBe(36);
    expect(row.big).toBe(2n ** 60n);
    expect(row.score).toBe(0.5);
    expect(row.whole).toBe(2);
    expect(row.address).toEqual({ city: 'London', zip: 12345 });
    expect(row.at).toBeInstanceOf(Temporal);
    expect(row.at.toDate()?.toISOString()).toBe(when.toISOString());
    expect([...row.raw]).toEqual([1, 2, 255]);
    expect(row.none).toBeNull();
    expect(row.ok).toBe(true);
    // A whole number wrapped in float() is a FLOAT on the server: its division does not truncate.
    const division = await db.query<{ f: number; i: number }>('RETURN $f / 4 AS f, $i / 4 AS i', { f: float(2), i: 2 });
    expect(division.rows[0]).toEqual({ f: 0.5, i: 0 });
  });

  it('a Point goes in as a parameter, is stored, and comes back a Point with its CRS', async () => {
    const res = await db.query<{ at: Point; lat: number; d: number; route: Point[] }>(
      'CREATE (s:Spot {at: $at, route: [$at, point({longitude: 0, latitude: 51.5})]}) RETURN s.at AS at, s.at.latitude AS lat, round(point.distance(s.route[0], s.route[1])) AS d, s.route AS route',
      { at: new Point(4326, -0.1276, 51.5072) },
    );
    const row = res.rows[0]!;
    expect(row.at).toEqual(new Point(4326, -0.1276, 51.5072, undefined, 'wgs-84'));
    expect(row.lat).toBe(51.5072);
    expect(row.d).toBe(8878);
    expect(row.route.map((p) => p.crs)).toEqual(['wgs-84', 'wgs-84']);
    const threeD = await db.query<{ p: Point }>('RETURN $p AS p', { p: new Point(9157, 1, 2, 3) });
    expect(threeD.rows[0]!.p).toEqual(new Point(9157, 1, 2, 3, 'cartesian-3d'));
  });

  it('errors carry the server code and reason', async () => {
    await expect(db.query('MATCH (n RETURN n')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('two transactions that increment one counter at once: one is aborted and retried, and the counter counts both', async () => {
    await db.query('CREATE (:Counter {name: "c", n: 0})');
    let attempts = 0;
    let bothRead: () => void = () => {};
    let reads = 0;
    const barrier = new Promise<void>((resolve) => (bothRead = resolve));
    const increment = (): Promise<number> =>
      db.transaction(async (tx) => {
        attempts++;
        const read = await tx.query<{ n: number }>('MATCH (c:Counter {name: "c"}) RETURN c.n AS n');
        // The first attempts of both read before either writes, so their writes conflict.
        if (++reads <= 2) {
          if (reads === 2) bothRead();
          await barrier;
        }
        const n = read.rows[0]!.n + 1;
        await tx.query('MATCH (c:Counter {name: "c"}) SET c.n = $n', { n });
        return n;
      });
    const results = await Promise.all([increment(), increment()]);
    expect(results.sort()).toEqual([1, 2]);
    // At least one retry; a retry that begins before the winner's commit is durable reads the old
    // value too and is aborted again, so there may be more.
    expect(attempts).toBeGreaterThanOrEqual(3);
    const final = await db.query<{ n: number }>('MATCH (c:Counter {name: "c"}) RETURN c.n AS n');
    expect(final.rows[0]!.n).toBe(2);
  });

  it('a failing transaction body is rolled back and its error reaches the caller', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('CREATE (:Ghost)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const ghosts = await db.query<{ n: number }>('MATCH (g:Ghost) RETURN count(g) AS n');
    expect(ghosts.rows[0]!.n).toBe(0);
  });

  it('the change feed is an async iterator that sees new writes in commit order', async () => {
    const start = (await db.query('CREATE (:Feed {i: 0})')).stats.commitTs;
    const seen: Change[] = [];
    const watching = (async () => {
      for await (const change of db.changes({ fromCommitTs: start + 1n, labels: ['Feed'] })) {
        seen.push(change);
        if (seen.length === 3) break;
      }
    })();
    for (const i of [1, 2, 3]) await db.query('CREATE (:Feed {i: $i})', { i });
    await watching;
    expect(seen.map((c) => c.kind)).toEqual(['node_created', 'node_created', 'node_created']);
    expect(seen.map((c) => (c.after as Node).properties['i'])).toEqual([1, 2, 3]);
    expect(seen[0]!.commitTs < seen[1]!.commitTs && seen[1]!.commitTs < seen[2]!.commitTs).toBe(true);
  });

  it('a creation retried with its operation takes effect once; the issuer file carries the sequence across restarts of the client', async () => {
    const issuerPath = join(dir, 'issuer.json');
    const first = connect(server.grpc, { issuer: issuerPath });
    const operation = await first.newOperation();
    const a = await first.createNode(['Order'], { no: 1 }, { operation });
    const again = await first.createNode(['Order'], { no: 1 }, { operation });
    expect(again.id).toBe(a.id);
    expect(again.properties).toEqual({ no: 1 });
    const b = await first.createNode(['Order'], { no: 2 });
    const rel = await first.createRelationship('NEXT', a.id, b.id, { w: 1 });
    const relOp = await first.newOperation();
    const r1 = await first.createRelationship('AFTER', b.id, a.id, {}, { operation: relOp });
    const r2 = await first.createRelationship('AFTER', b.id, a.id, {}, { operation: relOp });
    expect(r1).toBeInstanceOf(Relationship);
    expect(r2.id).toBe(r1.id);
    expect(rel.type).toBe('NEXT');
    first.close();
    const saved = JSON.parse(readFileSync(issuerPath, 'utf8')) as { issuer: string; incarnation: string };

    const second = connect(server.grpc, { issuer: issuerPath });
    const next = await second.newOperation();
    expect(Buffer.from(next.issuer).toString('hex')).toBe(saved.issuer);
    expect(String(next.incarnation)).toBe(saved.incarnation);
    expect(next.sequence).toBeGreaterThan(operation.sequence + 3n);
    await second.createNode(['Order'], { no: 3 }, { operation: next });
    second.close();
    const orders = await db.query<{ n: number }>('MATCH (o:Order) RETURN count(o) AS n');
    expect(orders.rows[0]!.n).toBe(3);
    const afters = await db.query<{ n: number }>('MATCH ()-[r:AFTER]->() RETURN count(r) AS n');
    expect(afters.rows[0]!.n).toBe(1);
  });

  it('the change feed rides out a restart of the member: every change arrives once, in order', async () => {
    const start = (await db.query('CREATE (:Restart {i: 0})')).stats.commitTs;
    const seen: number[] = [];
    let resolveThree: () => void = () => {};
    const three = new Promise<void>((resolve) => (resolveThree = resolve));
    const watching = (async () => {
      for await (const change of db.changes({ fromCommitTs: start + 1n, labels: ['Restart'] })) {
        seen.push((change.after as Node).properties['i'] as number);
        if (seen.length === 3) resolveThree();
        if (seen.length === 6) break;
      }
    })();
    for (const i of [1, 2, 3]) await db.query('CREATE (:Restart {i: $i})', { i });
    await three;
    // The same ports again, so the client's address still reaches the member.
    const port = server.grpc.split(':')[1]!;
    await server.stop();
    server = await startServerProcess(join(dir, 'data'), ['--shutdown-drain-ms', '300', '--grpc-port', port]);
    // The client never retries a write blindly: like an application, wait until a read gets through.
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await db.query('RETURN 1 AS one');
        break;
      } catch (e) {
        if (Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    for (const i of [4, 5, 6]) await db.query('CREATE (:Restart {i: $i})', { i });
    await watching;
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
