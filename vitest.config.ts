import { defineConfig } from 'vitest/config';

// The default run is the whole quick suite. Slow suites (long simulations, soak, chaos, the full TCK)
// have their own npm scripts and run here only as a short seeded slice.
// Slow process suites named `*.slow.test.ts` run only with WEFT_SLOW_TESTS=1 (`npm run test:slow`).
const slow = process.env['WEFT_SLOW_TESTS'] === '1';

export default defineConfig({
  test: {
    include: slow ? ['test/**/*.slow.test.ts'] : ['test/**/*.test.ts'],
    exclude: slow ? ['**/node_modules/**'] : ['**/node_modules/**', 'test/**/*.slow.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
