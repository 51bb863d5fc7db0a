import { describe, expect, it } from 'vitest';
import { rulesName } from '../../../src/common/values/time-zone.js';
import { withDb } from './support.js';

/**
 * Renamed IANA zones and compatibility links: both names of a renamed zone are accepted and printed as
 * given (in tzdb's spelling, whatever the case written), their offsets are the zone's, and, as in Neo4j,
 * each name is a zone id of its own: the same instant in `Asia/Calcutta` and in `Asia/Kolkata` is two
 * values, ordered by name.
 */
describe('renamed zones and zone links', () => {
  it('accepts both names of a renamed zone and prints the one given', async () => {
    await withDb(async (db) => {
      const text = async (q: string): Promise<unknown[]> => (await db.query(`RETURN ${q}`)).rows[0]!.map((v) => (typeof v === 'boolean' ? v : String(v)));
      expect(
        await text(
          `toString(datetime({year: 2020, month: 6, day: 1, hour: 12, timezone: 'Asia/Calcutta'})),
           toString(datetime({year: 2020, month: 6, day: 1, hour: 12, timezone: 'Asia/Kolkata'})),
           toString(datetime({year: 2020, month: 6, day: 1, hour: 12, timezone: 'asia/kolkata'})),
           toString(datetime('2020-06-01T12:00[us/pacific]')),
           toString(datetime('2020-06-01T12:00[Europe/Kiev]')),
           toString(datetime('2020-06-01T12:00[europe/kyiv]')),
           datetime('2020-06-01T12:00[America/Nuuk]').timezone`,
        ),
      ).toEqual([
        '2020-06-01T12:00+05:30[Asia/Calcutta]',
        '2020-06-01T12:00+05:30[Asia/Kolkata]',
        '2020-06-01T12:00+05:30[Asia/Kolkata]',
        '2020-06-01T12:00-07:00[US/Pacific]',
        '2020-06-01T12:00+03:00[Europe/Kiev]',
        '2020-06-01T12:00+03:00[Europe/Kyiv]',
        'America/Nuuk',
      ]);
      // Winter offsets too: the zone's rules, not a fixed offset.
      expect(await text(`toString(datetime('2020-01-15T12:00[Europe/Kyiv]')), toString(datetime('2020-01-15T12:00[US/Pacific]'))`)).toEqual([
        '2020-01-15T12:00+02:00[Europe/Kyiv]',
        '2020-01-15T12:00-08:00[US/Pacific]',
      ]);
    });
  });

  it('compares the names as Neo4j does: one name in two cases is one zone, a former and a current name are two', async () => {
    await withDb(async (db) => {
      const row = (await db.query(
        `WITH datetime('2020-06-01T12:00[Asia/Calcutta]') AS old, datetime('2020-06-01T12:00[Asia/Kolkata]') AS new,
              datetime('2020-06-01T12:00[ASIA/KOLKATA]') AS shouted
         RETURN new = shouted, old = new, old < new, old.epochMillis = new.epochMillis, size(collect(DISTINCT new) + collect(DISTINCT shouted))`,
      )).rows[0]!;
      expect(row).toEqual([true, false, true, true, 2n]);
    });
  });

  it('takes a name the zone data lacks from the other name of its zone', () => {
    // A zone data older than the rename knows only Europe/Kiev; one that canonicalises knows only Asia/Calcutta.
    const old = new Set(['Europe/Kiev', 'Asia/Calcutta', 'America/Godthab']);
    const knows = (z: string): boolean => old.has(z);
    expect(rulesName('Europe/Kyiv', knows)).toBe('Europe/Kiev');
    expect(rulesName('asia/kolkata', knows)).toBe('Asia/Calcutta');
    expect(rulesName('America/Nuuk', knows)).toBe('America/Godthab');
    expect(rulesName('Europe/Kiev', knows)).toBe('Europe/Kiev');
    expect(rulesName('Mars/Olympus_Mons', knows)).toBeUndefined();
    expect(rulesName('Pacific/Kanton', knows)).toBeUndefined();
  });

  it('refuses a name no zone has', async () => {
    await withDb(async (db) => {
      await expect(db.query(`RETURN datetime({year: 2020, timezone: 'Asia/Kolkatta'})`)).rejects.toThrow(/unknown time zone/);
    });
  });
});
