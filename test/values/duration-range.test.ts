import { describe, expect, it } from 'vitest';
import { orderCompare } from '../../src/common/values/order.js';
import { equals } from '../../src/common/values/equality.js';
import { DURATION_SECONDS_MAX, DURATION_SECONDS_MIN, DurationValue } from '../../src/common/values/temporal.js';
import { decodeState, encodeState } from '../../src/log/codec.js';
import { CypherError } from '../../src/query/errors.js';
import { withDb } from '../query/engine/support.js';

/**
 * Cypher durations hold 64-bit seconds. The distance between the first and the last local date-time
 * Cypher can represent is about 6.3e16 s, beyond 2^53: it must come out exact, compare, add, scale,
 * print and be stored exactly, and a result past 2^63 seconds must fail as an overflow.
 */
const FIRST = "localdatetime('-999999999-01-01')";
const LAST = "localdatetime('+999999999-12-31T23:59:59')";
/** (LAST - FIRST) in seconds, counted by hand: 1,999,999,999 years of 365.2425 days, less the missing second. */
const SPAN_SECONDS = 17_531_639_991_215n * 3600n + 59n * 60n + 59n;

async function value(text: string): Promise<unknown> {
  return withDb(async (db) => (await db.query(`RETURN ${text} AS v`)).rows[0]?.[0]);
}

async function failure(text: string): Promise<string> {
  try {
    await value(text);
  } catch (e) {
    if (e instanceof CypherError) return `${e.type}/${e.detail}`;
    throw e;
  }
  return 'no error';
}

describe('durations beyond 2^53 seconds', () => {
  it('measure the whole range of local date-times in seconds, exactly', async () => {
    expect(SPAN_SECONDS > 2n ** 53n).toBe(true);
    expect(String(await value(`duration.inSeconds(${FIRST}, ${LAST})`))).toBe('PT17531639991215H59M59S');
    expect(String(await value(`duration.inSeconds(${LAST}, ${FIRST})`))).toBe('PT-17531639991215H-59M-59S');
    expect(await value(`duration.inSeconds(${FIRST}, ${LAST}).seconds`)).toBe(SPAN_SECONDS);
    // Milliseconds and nanoseconds of that span pass 2^63 only in nanoseconds; both stay exact as BigInts.
    expect(await value(`duration.inSeconds(${FIRST}, ${LAST}).milliseconds`)).toBe(SPAN_SECONDS * 1000n);
  });

  it('take the span back off the last instant to reach the first', async () => {
    expect(String(await value(`${LAST} - duration.inSeconds(${FIRST}, ${LAST})`))).toBe('-999999999-01-01T00:00');
    expect(String(await value(`${FIRST} + duration.inSeconds(${FIRST}, ${LAST})`))).toBe('+999999999-12-31T23:59:59');
  });

  it('add, negate and scale large durations exactly, and refuse what passes 64-bit seconds', async () => {
    const span = `duration.inSeconds(${FIRST}, ${LAST})`;
    expect(await value(`(${span} + duration({seconds: 1})).seconds`)).toBe(SPAN_SECONDS + 1n);
    expect(await value(`(${span} - ${span}).seconds`)).toBe(0n);
    expect(await value(`(-${span}).seconds`)).toBe(-SPAN_SECONDS);
    expect(await value(`(${span} * 100).seconds`)).toBe(SPAN_SECONDS * 100n);
    expect(await value(`(${span} + duration({nanoseconds: -1})).nanosecondsOfSecond`)).toBe(999_999_999n);
    expect(await failure(`${span} * 1000`)).toBe('ArithmeticError/IntegerOverflow');
    expect(await value(`duration({seconds: ${DURATION_SECONDS_MAX}}).seconds`)).toBe(DURATION_SECONDS_MAX);
    expect(await failure(`duration({seconds: ${DURATION_SECONDS_MAX}}) + duration({seconds: 1})`)).toBe('ArithmeticError/IntegerOverflow');
    expect(await failure(`duration({seconds: ${DURATION_SECONDS_MAX}, milliseconds: 1000})`)).toBe('ArgumentError/NumberOutOfRange');
  });

  it('compare and group large durations by their exact seconds', async () => {
    const big = new DurationValue(0, 0, 2n ** 60n, 0);
    const bigger = new DurationValue(0, 0, 2n ** 60n + 1n, 0);
    // Two values a double cannot tell apart.
    expect(Number(big.seconds)).toBe(Number(bigger.seconds));
    expect(equals(big, bigger)).toBe(false);
    expect(orderCompare(big, bigger)).toBe(-1);
    expect(orderCompare(bigger, big)).toBe(1);
    expect(orderCompare(new DurationValue(0, 0, DURATION_SECONDS_MIN, 0), big)).toBe(-1);
    const span = `duration.inSeconds(${FIRST}, ${LAST})`;
    // Durations are not comparable with < in Cypher, but they sort, and exactly.
    expect(await value(`${span} > ${span} - duration({nanoseconds: 1})`)).toBe(null);
    const sorted = await withDb(async (db) => (await db.query(`UNWIND [${span} + duration({seconds: 1}), ${span}, ${span} - duration({nanoseconds: 1})] AS d RETURN d.seconds - ${SPAN_SECONDS} AS s, d.nanosecondsOfSecond AS n ORDER BY d`)).rows);
    expect(sorted).toEqual([[-1n, 999_999_999n], [0n, 0n], [1n, 0n]]);
    expect(await withDb(async (db) => (await db.query(`UNWIND [${span}, ${span} + duration({seconds: 1}), ${span}] AS d RETURN count(DISTINCT d) AS n`)).rows[0]?.[0])).toBe(2n);
  });

  it('survive the log codec and a stored property', async () => {
    for (const s of [0n, 5n, -(2n ** 53n) + 1n, 2n ** 53n, SPAN_SECONDS, DURATION_SECONDS_MIN, DURATION_SECONDS_MAX]) {
      const d = new DurationValue(3, -4, s, 123);
      const back = decodeState(encodeState({ d })) as { d: DurationValue };
      expect(back.d).toBeInstanceOf(DurationValue);
      expect(equals(back.d, d)).toBe(true);
    }
    await withDb(async (db) => {
      await db.query(`CREATE (:Span {d: duration.inSeconds(${FIRST}, ${LAST})})`);
      const rows = (await db.query('MATCH (s:Span) RETURN s.d AS d')).rows;
      expect(String(rows[0]?.[0])).toBe('PT17531639991215H59M59S');
    });
  });
});
