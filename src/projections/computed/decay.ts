import { assertNever } from '../../common/assert.js';
import type { ComputedPropertySpec } from '../../log/events.js';

/**
 * The decay formulas of SPEC 2.4, over normalized time t = elapsed / duration_secs clamped to
 * [0, 1]. Each f starts at f(0) = 1 and stays in [0, 1].
 */
export function decayFactor(spec: Pick<ComputedPropertySpec, 'formula_type' | 'lambda' | 'tau' | 'alpha'>, t: number): number {
  switch (spec.formula_type) {
    case 'LINEAR':
      return Math.max(0, 1 - t);
    case 'EXPONENTIAL':
      return Math.exp(-spec.lambda * t);
    case 'POWER_LAW':
      return Math.pow(1 + t / spec.tau, -spec.alpha);
    case 'STEP':
      return t < 1 ? 1 : 0;
    default:
      return assertNever(spec.formula_type, 'decay formula');
  }
}

/** Normalized time: elapsed seconds over the duration, clamped to [0, 1]; a future anchor is 0. */
export function normalizedTime(elapsed_secs: number, duration_secs: number): number {
  return Math.min(1, Math.max(0, elapsed_secs / duration_secs));
}

/**
 * A DECAY value: `initial` at elapsed 0, moving toward `target` as f falls, and exactly `target`
 * once elapsed >= duration_secs (where EXPONENTIAL and POWER_LAW have not reached 0).
 */
export function decayValue(spec: ComputedPropertySpec, elapsed_secs: number): number {
  const t = normalizedTime(elapsed_secs, spec.duration_secs);
  if (t >= 1) return spec.target;
  return spec.target + (spec.initial - spec.target) * decayFactor(spec, t);
}

/** A VECTOR_DECAY multiplier in [0, 1]: f(t) itself, 0 for STEP and LINEAR at the end. */
export function vectorDecayMultiplier(spec: ComputedPropertySpec, elapsed_secs: number): number {
  return decayFactor(spec, normalizedTime(elapsed_secs, spec.duration_secs));
}
