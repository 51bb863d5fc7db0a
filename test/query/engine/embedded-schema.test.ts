import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { open } from '../../../src/index.js';
import { operators } from './support.js';

/**
 * The embedded API takes Cypher DDL as a server does: CREATE INDEX returns once the index has
 * published and the planner seeks it, a UNIQUE constraint refuses a duplicate, DROP removes both, and
 * all of it is in the log, so a reopened directory has the same catalog.
 */
describe('schema statements through open()', () => {
  it('create, use, enforce and drop indexes and constraints, across a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-embedded-schema-'));
    try {
      const db = await open(dir);
      await db.query('UNWIND range(1, 200) AS i CREATE (:Person {id: i, email: "p" + toString(i)})');
      const created = await db.query('CREATE INDEX person_id FOR (p:Person) ON (p.id)');
      expect(created.rows).toEqual([]);
      expect(operators(db.explain('MATCH (p:Person {id: 7}) RETURN p.email'))).toContain('NodeIndexSeek');
      expect((await db.query('MATCH (p:Person {id: 7}) RETURN p.email')).rows).toEqual([['p7']]);
      // Writes go through the index too, the write set's own nodes included.
      expect((await db.query('CREATE (:Person {id: 1000}) WITH 1 AS x MATCH (p:Person {id: 1000}) RETURN count(p)')).rows).toEqual([[1n]]);

      await db.query('CREATE CONSTRAINT person_email FOR (p:Person) REQUIRE p.email IS UNIQUE');
      await expect(db.query('CREATE (:Person {id: 2000, email: "p3"})')).rejects.toMatchObject({ code: 'FAILED_PRECONDITION' });
      expect((await db.query('MATCH (p:Person {email: "p3"}) RETURN count(*)')).rows).toEqual([[1n]]);
      // IF NOT EXISTS on an existing name is not an error; without it, it is.
      await db.query('CREATE INDEX person_id IF NOT EXISTS FOR (p:Person) ON (p.id)');
      await expect(db.query('CREATE INDEX person_id FOR (p:Person) ON (p.id)')).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
      await db.close();

      const again = await open(dir);
      try {
        expect(operators(again.explain('MATCH (p:Person {id: 7}) RETURN p.email'))).toContain('NodeIndexSeek');
        await expect(again.query('CREATE (:Person {id: 2001, email: "p4"})')).rejects.toMatchObject({ code: 'FAILED_PRECONDITION' });
        await again.query('DROP CONSTRAINT person_email');
        await again.query('CREATE (:Person {id: 2001, email: "p4"})');
        await again.query('DROP INDEX person_id');
        expect(operators(again.explain('MATCH (p:Person {id: 7}) RETURN p.email'))).not.toContain('NodeIndexSeek');
        await again.query('DROP INDEX person_id IF EXISTS');
        await expect(again.query('DROP INDEX person_id')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
