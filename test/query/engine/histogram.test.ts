import { describe, expect, it } from 'vitest';
import { buildHistogram, equalityShare, planBand, rangeShare, valueBand, type HistogramValue, type RangeBound } from '../../../src/query/plan/histogram.js';
import { STATISTICS_SAMPLE_MAX } from '../../../src/query/execute/batch/column-statistics.js';
import { prng, testSeed } from '../../support/prng.js';

/**
 * Equi-depth histograms built from a sample of a population estimate the share of the whole population that a
 * range or an equality keeps. Populations are drawn at random (uniform, skewed, with a value most rows share,
 * strings), sampled with a stride as the statistics sample a label's list, and every estimate is compared with
 * the population's true share.
 */

/** A sample the way column-statistics.ts takes it: every stride-th value, at most STATISTICS_SAMPLE_MAX. */
function strided<T>(population: readonly T[]): T[] {
  const stride = Math.max(1, Math.floor(population.length / STATISTICS_SAMPLE_MAX));
  const out: T[] = [];
  for (let i = 0; i < population.length; i += stride) out.push(population[i] as T);
  return out;
}

function trueRange(population: readonly HistogramValue[], lower: RangeBound | undefined, upper: RangeBound | undefined): number {
  let n = 0;
  for (const v of population) {
    if (lower !== undefined && (lower.inclusive ? v < lower.value : v <= lower.value)) continue;
    if (upper !== undefined && (upper.inclusive ? v > upper.value : v >= upper.value)) continue;
    n++;
  }
  return n / population.length;
}

/** A sample's standard error near a share of one half is about 1.1%; ranges are allowed four of them plus a bucket's width. */
const RANGE_ERROR_MAX = 0.05 + 1 / 64;

describe('equi-depth histograms', () => {
  it('estimate ranges within a few percent on uniform, skewed and heavy-hitter numbers', () => {
    const seed = testSeed('histogram-numbers');
    const r = prng(seed);
    const populations: Record<string, number[]> = {
      uniform: Array.from({ length: 50_000 }, () => Math.floor(r() * 10_000)),
      floats: Array.from({ length: 30_000 }, () => (r() - 0.5) * 1e6),
      // Most rows near the low end: a squared uniform.
      skewed: Array.from({ length: 40_000 }, () => Math.floor(r() * r() * 100_000)),
      // Forty per cent of the rows hold one value.
      heavy: Array.from({ length: 20_000 }, () => (r() < 0.4 ? 7 : Math.floor(r() * 1000))),
      // In insertion order, as ids are: a stride samples the whole span.
      ordered: Array.from({ length: 100_000 }, (_, i) => i),
    };
    for (const [name, population] of Object.entries(populations)) {
      // Random order for all but the ordered one (a label's list is in creation order).
      const h = buildHistogram('number', strided(population));
      expect(h, name).toBeDefined();
      const min = Math.min(...population.slice(0, 5000));
      const max = Math.max(...population.slice(0, 5000));
      for (let k = 0; k < 60; k++) {
        const a = min + r() * (max - min);
        const b = min + r() * (max - min);
        const lower = r() < 0.2 ? undefined : { value: Math.floor(Math.min(a, b)), inclusive: r() < 0.5 };
        const upper = r() < 0.2 ? undefined : { value: Math.ceil(Math.max(a, b)), inclusive: r() < 0.5 };
        const want = trueRange(population, lower, upper);
        const got = rangeShare(h!, lower, upper);
        expect(Math.abs(got - want), `seed ${seed}: ${name} ${JSON.stringify({ lower, upper })} true ${want} estimated ${got}`).toBeLessThanOrEqual(RANGE_ERROR_MAX);
      }
    }
  });

  it('estimate equalities: a value most rows share by its share, a rare one near one over the distinct values', () => {
    const seed = testSeed('histogram-equality');
    const r = prng(seed);
    const population = Array.from({ length: 20_000 }, () => (r() < 0.4 ? 7 : 1000 + Math.floor(r() * 1000)));
    const h = buildHistogram('number', strided(population))!;
    expect(Math.abs(equalityShare(h, 7) - 0.4)).toBeLessThan(0.05);
    // The other 60% spread over 1000 values: 0.06% each; the estimate stays within a factor of three.
    const rare = equalityShare(h, 1500);
    expect(rare).toBeGreaterThan(0.0006 / 3);
    expect(rare).toBeLessThan(0.0006 * 3);
    // Outside the sampled span, or of another kind: nothing.
    expect(equalityShare(h, -5)).toBe(0);
    expect(equalityShare(h, 5000)).toBe(0);
    expect(equalityShare(h, '7')).toBe(0);
    expect(rangeShare(h, { value: 'a', inclusive: true }, undefined)).toBe(0);
  });

  it('estimate string ranges by code-unit order, as Cypher compares strings', () => {
    const seed = testSeed('histogram-strings');
    const r = prng(seed);
    const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const word = (): string => Array.from({ length: 1 + Math.floor(r() * 8) }, () => letters[Math.floor(r() * letters.length)]).join('');
    const population = Array.from({ length: 30_000 }, word);
    const h = buildHistogram('string', strided(population))!;
    for (let k = 0; k < 60; k++) {
      const [a, b] = [word(), word()].sort();
      const lower = r() < 0.2 ? undefined : { value: a as string, inclusive: r() < 0.5 };
      const upper = r() < 0.2 ? undefined : { value: b as string, inclusive: r() < 0.5 };
      const want = trueRange(population, lower, upper);
      const got = rangeShare(h, lower, upper);
      expect(Math.abs(got - want), `seed ${seed}: ${JSON.stringify({ lower, upper })} true ${want} estimated ${got}`).toBeLessThanOrEqual(RANGE_ERROR_MAX);
    }
  });

  it('never cut between equal values, and answer the whole population for an open range', () => {
    const h = buildHistogram('number', [1, 1, 1, 1, 2, 3, 3, 3, 3, 3, 4], 4)!;
    expect(new Set(h.uppers).size).toBe(h.uppers.length);
    expect(h.shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(rangeShare(h, undefined, undefined)).toBeCloseTo(1, 12);
    expect(rangeShare(h, { value: 1, inclusive: true }, { value: 4, inclusive: true })).toBeCloseTo(1, 12);
    expect(rangeShare(h, { value: 4, inclusive: false }, undefined)).toBe(0);
    expect(equalityShare(h, 3)).toBeCloseTo(5 / 11, 12);
    expect(buildHistogram('number', [])).toBeUndefined();
  });
});

describe('plan bands', () => {
  it('split the end buckets one by one, widen towards the middle into one band, and number 9 over 64 buckets, plus two outside them', () => {
    const population = Array.from({ length: 100_000 }, (_, i) => i);
    const h = buildHistogram('number', strided(population));
    if (h === undefined) throw new Error('no histogram');
    expect(h.uppers.length).toBe(64);
    const bands = new Set<number>();
    for (let v = -10; v <= 100_010; v += 7) bands.add(planBand(h, v));
    // 9 inside, one below the least value, one above the greatest.
    expect(bands.size).toBe(11);
    // The first two and the last two buckets are bands of their own; two values a bucket apart in the middle share one.
    const at = (bucket: number): number => (bucket * 100_000) / 64 + 10;
    expect(valueBand(h, at(0))).toBe(0);
    expect(new Set([planBand(h, at(0)), planBand(h, at(1)), planBand(h, at(62)), planBand(h, at(63))]).size).toBe(4);
    expect(planBand(h, at(30))).toBe(planBand(h, at(31)));
    // Eight buckets or more from both ends is one band, whichever end is nearer.
    expect(planBand(h, at(9))).toBe(planBand(h, at(54)));
    expect(planBand(h, at(5))).not.toBe(planBand(h, at(9)));
    expect(planBand(h, at(58))).not.toBe(planBand(h, at(54)));
    expect(planBand(h, at(30))).not.toBe(planBand(h, at(0)));
    // Numbers and strings are told apart.
    expect(planBand(h, 'x')).toBe(-2);
  });
});
