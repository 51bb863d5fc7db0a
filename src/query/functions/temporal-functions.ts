import { isTemporalPoint } from '../values/temporal-arithmetic.js';
import { durationBetween, type BetweenUnit } from '../values/temporal-between.js';
import { arg, integerArg, wrongType } from './args.js';
import type { EpochInstant, FunctionContext } from './context.js';
import { scalar, type ScalarFunction } from './definition.js';
import { construct, constructDuration, defaultZone, fromEpoch, now, type PointKind } from './temporal-construct.js';
import { truncate } from './temporal-truncate.js';
import { zoneSpecOf } from './temporal-fields.js';

/**
 * The temporal functions of the catalog: the five constructors with their clock and truncate
 * variants, datetime.fromepoch(millis), duration and duration.between / inMonths / inDays / inSeconds,
 * and timestamp().
 */

const KINDS: readonly PointKind[] = ['date', 'localtime', 'time', 'localdatetime', 'datetime'];
const CLOCKS = ['statement', 'transaction', 'realtime'] as const;

function clockFn(kind: PointKind, clock: (typeof CLOCKS)[number]): ScalarFunction {
  return scalar(
    `${kind}.${clock}`,
    0,
    1,
    (args, ctx) => {
      if (args.length > 0 && arg(args, 0) === null) return null;
      const spec = args.length === 0 ? defaultZone(ctx) : zoneSpecOf(`${kind}.${clock}`, arg(args, 0));
      return now(kind, readClock(ctx, clock), spec, ctx);
    },
    { deterministic: clock !== 'realtime' },
  );
}

function readClock(ctx: FunctionContext, clock: (typeof CLOCKS)[number]): EpochInstant {
  switch (clock) {
    case 'statement':
      return ctx.clock.statement();
    case 'transaction':
      return ctx.clock.transaction();
    case 'realtime':
      return ctx.clock.realtime();
  }
}

function between(name: string, unit: BetweenUnit): ScalarFunction {
  return scalar(name, 2, 2, (args) => {
    const [a, b] = [arg(args, 0), arg(args, 1)];
    if (a === null || b === null) return null;
    if (!isTemporalPoint(a)) return wrongType(name, 'a temporal value', a);
    if (!isTemporalPoint(b)) return wrongType(name, 'a temporal value', b);
    return durationBetween(a, b, unit);
  });
}

export const temporalFunctions: readonly ScalarFunction[] = [
  ...KINDS.map((kind) =>
    scalar(kind, 0, 1, (args, ctx) => (args.length === 0 ? now(kind, ctx.clock.statement(), defaultZone(ctx), ctx) : construct(kind, arg(args, 0), ctx))),
  ),
  ...KINDS.flatMap((kind) => CLOCKS.map((clock) => clockFn(kind, clock))),
  ...KINDS.map((kind) =>
    // Without a value, `date.truncate('month')` truncates the statement's current instant.
    scalar(`${kind}.truncate`, 1, 3, (args, ctx) => {
      const value = args.length > 1 ? arg(args, 1) : now('datetime', ctx.clock.statement(), defaultZone(ctx), ctx);
      return truncate(kind, arg(args, 0), value, args.length > 2 ? arg(args, 2) : null, ctx);
    }),
  ),
  scalar('datetime.fromepoch', 2, 2, (args, ctx) => {
    const [s, n] = [arg(args, 0), arg(args, 1)];
    if (s === null || n === null) return null;
    return fromEpoch(Number(integerArg('datetime.fromepoch', s)), Number(integerArg('datetime.fromepoch', n)), ctx);
  }),
  scalar('datetime.fromepochmillis', 1, 1, (args, ctx) => {
    const ms = arg(args, 0);
    if (ms === null) return null;
    const m = integerArg('datetime.fromepochmillis', ms);
    const seconds = m >= 0n ? m / 1000n : -((-m + 999n) / 1000n);
    return fromEpoch(Number(seconds), Number(m - seconds * 1000n) * 1_000_000, ctx);
  }),
  scalar('duration', 1, 1, (args) => constructDuration(arg(args, 0))),
  between('duration.between', 'all'),
  between('duration.inmonths', 'months'),
  between('duration.indays', 'days'),
  between('duration.inseconds', 'seconds'),
  scalar(
    'timestamp',
    0,
    0,
    (_args, ctx) => {
      const i = ctx.clock.statement();
      return BigInt(i.epochSecond) * 1000n + BigInt(Math.floor(i.nano / 1_000_000));
    },
    { deterministic: false },
  ),
];
