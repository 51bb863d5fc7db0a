/**
 * The `grpc-timeout` header: a deadline sent as the time left, 1 to 8 ASCII digits and a unit
 * (H hours, M minutes, S seconds, m milliseconds, u microseconds, n nanoseconds).
 */

const grpc_timeout_units_ms: Readonly<Record<string, number>> = {
  H: 3_600_000,
  M: 60_000,
  S: 1_000,
  m: 1,
  u: 0.001,
  n: 0.000001,
};

/** The largest value the header's 8 digits can hold. */
const grpc_timeout_digits_max = 99_999_999;

/**
 * A `grpc-timeout` value in milliseconds (gRPC's format: 1 to 8 digits and a unit H M S m u n),
 * or undefined when the value is not in that format.
 */
export function parseGrpcTimeoutMs(value: string): number | undefined {
  const m = /^(\d{1,8})([HMSmun])$/.exec(value.trim());
  const unit = m?.[2] === undefined ? undefined : grpc_timeout_units_ms[m[2]];
  return m === null || unit === undefined ? undefined : Number(m[1]) * unit;
}

/**
 * The header for `timeout_ms` left (> 0): milliseconds, rounded up so the server never sees a
 * deadline sooner than the caller's, in the coarsest unit only when 8 digits of the finer one
 * cannot hold it.
 */
export function grpcTimeoutHeader(timeout_ms: number): string {
  const ms = Math.max(1, Math.ceil(timeout_ms));
  if (ms <= grpc_timeout_digits_max) return `${ms}m`;
  const s = Math.ceil(ms / 1_000);
  if (s <= grpc_timeout_digits_max) return `${s}S`;
  return `${Math.min(grpc_timeout_digits_max, Math.ceil(ms / 3_600_000))}H`;
}
