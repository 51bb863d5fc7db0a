import { defineConfig } from 'vitest/config';

// The default run is the whole quick suite. Slow suites (long simulations, soak, chaos, the full TCK)
// have their own npm scripts and run here only as a short seeded slice.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
