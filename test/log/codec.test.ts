import { describe, expect, it } from 'vitest';
import { decodePayload, encodePayload } from '../../src/log/codec.js';
import { DateTimeValue, DateValue, DurationValue, LocalDateTimeValue, LocalTimeValue, TimeValue } from '../../src/common/values/temporal.js';

describe('log payload codec', () => {
  it('keeps integers as bigint and floats as numbers, typed arrays and temporal values intact', () => {
    const props: [string, unknown][] = [
      ['int', 5n],
      ['big', 2n ** 62n],
      ['neg', -7n],
      ['float', 1.0],
      ['float2', 2 ** 60],
      ['vec', new Float32Array([0.5, 1.5])],
      ['bytes', new Uint8Array([1, 2, 3])],
      ['list', [1n, 2n]],
      ['date', new DateValue(12345)],
      ['lt', new LocalTimeValue(1_000_000_123)],
      ['t', new TimeValue(5, -3600)],
      ['ldt', new LocalDateTimeValue(-5, 77)],
      ['dt', new DateTimeValue(100, 200, 3600, 'Europe/Stockholm')],
      ['dur', new DurationValue(14, 3, 5, 7)],
    ];
    const payload = {
      commit_ts: 1_795_000_000_000_000,
      event: { kind: 'graph_write' as const, ops: [{ op: 'create_node' as const, id: 1, labels: ['A'], props: props as never }] },
    };
    const back = decodePayload(encodePayload(payload));
    expect(back.commit_ts).toBe(payload.commit_ts);
    const got = (back.event as typeof payload.event).ops[0]!.props as unknown as [string, unknown][];
    for (const [i, [k, v]] of props.entries()) {
      expect(got[i]![0]).toBe(k);
      expect(typeof got[i]![1]).toBe(typeof v);
      if (typeof v === 'object') {
        expect((got[i]![1] as object).constructor).toBe((v as object).constructor);
        expect(String(got[i]![1])).toBe(String(v));
      } else expect(got[i]![1]).toBe(v);
    }
  });

  it('keeps Map values (MAP and DOCUMENT properties, defaults) as Maps, nested too, and events as plain objects', () => {
    const doc = new Map<string, unknown>([['a', 1n], ['nested', new Map([['b', [new Map([['c', 'd']])]]])]]);
    const payload = { commit_ts: 1, event: { kind: 'graph_write' as const, ops: [{ op: 'create_node' as const, id: 1, labels: [], props: [['doc', doc]] as never }] } };
    const back = decodePayload(encodePayload(payload));
    const value = ((back.event as typeof payload.event).ops[0]!.props as unknown as [string, unknown][])[0]![1] as Map<string, unknown>;
    expect(value).toBeInstanceOf(Map);
    expect(value.get('a')).toBe(1n);
    const nested = value.get('nested') as Map<string, unknown>;
    expect(((nested.get('b') as unknown[])[0] as Map<string, unknown>).get('c')).toBe('d');
    expect(Object.getPrototypeOf(back.event)).toBe(Object.prototype);
    // The original payload is not changed by encoding.
    expect(payload.event.ops[0]!.props).toEqual([['doc', doc]]);
  });
});
