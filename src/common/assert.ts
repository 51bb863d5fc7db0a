/** An invariant that must hold. Failing it is a bug: it stays on in production and is never caught to be hidden. */
export class AssertionFailure extends Error {
  override readonly name = 'AssertionFailure';
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionFailure(message);
}

/** The default of an exhaustive `switch` over a discriminated union. */
export function assertNever(value: never, what = 'value'): never {
  throw new AssertionFailure(`unexpected ${what}: ${JSON.stringify(value)}`);
}
