import { describe, expect, it } from 'vitest';
import { QueryEngine, type ExecuteContext } from '../../../src/query/engine.js';
import type { CsvInput, CsvSources } from '../../../src/query/execute/csv/csv-source.js';
import { failure } from '../../support/failure.js';
import { withDb } from './support.js';

/**
 * The engine's side of a source whose text arrives later (a remote one): under the driver the
 * statement pauses until each piece has arrived and reads the same rows as from a source that has it
 * all; run in one go it cannot wait and fails with CannotWait; every source opened is closed, also
 * when LIMIT stops the statement early or it fails.
 */
class SlowSources implements CsvSources {
  readonly closed: string[] = [];
  /** Pieces handed over so far, across the sources opened. */
  handed = 0;

  constructor(
    private readonly pieces: readonly string[],
    /** Whether each piece is announced by a promise first, as a stream's is. */
    private readonly late: boolean,
  ) {}

  open(url: string): CsvInput {
    let next = 0;
    let arrived = !this.late;
    return {
      file: url,
      read: () => {
        if (next >= this.pieces.length) return null;
        if (!arrived) {
          arrived = true;
          return new Promise<void>((resolve) => setTimeout(resolve, 1));
        }
        arrived = !this.late;
        this.handed++;
        return this.pieces[next++]!;
      },
      close: () => this.closed.push(url),
    };
  }
}

const pieces = ['id,na', 'me\n1,"A', 'da"\n2,Gr', 'ace\n3,Edsger\n', '4,', 'Barbara'];
const context = (csv: CsvSources): ExecuteContext => ({ params: new Map(), memory_limit_bytes: 1 << 26, now_us: 0, csv });

describe('LOAD CSV from a source that makes the statement wait', () => {
  it('sliced, the statement waits for each piece and reads what it reads from a source that has them all', async () => {
    await withDb(async (db) => {
      const engine = new QueryEngine();
      const text = "LOAD CSV WITH HEADERS FROM 'x://people' AS r RETURN linenumber() AS line, r.name AS name";
      const graph = db.database.latestCommitted();
      const late = new SlowSources(pieces, true);
      const eager = new SlowSources(pieces, false);
      const waited = await engine.executeSliced(engine.prepare(text), graph, context(late));
      const direct = engine.execute(engine.prepare(text), graph, context(eager));
      expect(waited.rows).toEqual([
        [2n, 'Ada'],
        [3n, 'Grace'],
        [4n, 'Edsger'],
        [5n, 'Barbara'],
      ]);
      expect(direct.rows).toEqual(waited.rows);
      expect([late.closed, eager.closed]).toEqual([['x://people'], ['x://people']]);
    });
  });

  it('run in one go, a statement that would have to wait fails with CannotWait, and the source is closed', async () => {
    await withDb(async (db) => {
      const engine = new QueryEngine();
      const late = new SlowSources(pieces, true);
      const e = await failure(Promise.resolve().then(() => engine.execute(engine.prepare("LOAD CSV FROM 'x://people' AS r RETURN r"), db.database.latestCommitted(), context(late))));
      expect(e).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'ExternalResourceFailed', metadata: { detail: 'CannotWait' } });
      expect(late.closed).toEqual(['x://people']);
    });
  });

  it('LIMIT stops reading: the source is closed with pieces left unread', async () => {
    await withDb(async (db) => {
      const engine = new QueryEngine();
      const late = new SlowSources(pieces, true);
      const out = await engine.executeSliced(engine.prepare("LOAD CSV FROM 'x://people' AS r RETURN r[1] AS name LIMIT 1"), db.database.latestCommitted(), context(late));
      expect(out.rows).toEqual([['name']]);
      expect(late.closed).toEqual(['x://people']);
      expect(late.handed).toBeLessThan(pieces.length);
    });
  });

  it('without sources, LOAD CSV is refused', async () => {
    await withDb(async (db) => {
      const engine = new QueryEngine();
      const e = await failure(Promise.resolve().then(() => engine.execute(engine.prepare("LOAD CSV FROM 'file:///a.csv' AS r RETURN r"), db.database.latestCommitted(), { params: new Map(), memory_limit_bytes: 1 << 26, now_us: 0 })));
      expect(e).toMatchObject({ reason: 'ExternalResourceFailed', metadata: { detail: 'LoadCsvUnavailable' } });
    });
  });
});
