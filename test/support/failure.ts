import { WeftError } from '../../src/common/errors.js';

/** The WeftError `p` fails with; anything else it throws is thrown again, and success is a test failure. */
export async function failure(p: Promise<unknown>): Promise<WeftError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof WeftError) return e;
    throw e;
  }
  throw new Error('expected a failure, and it succeeded');
}
