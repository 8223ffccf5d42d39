import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Stops the run at once, saying where it looked, when the third-party fixtures are missing.
    globalSetup: ['test/support/fixtures-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Real agents, toolchains and ptys: two cores, so keep files from starving each other.
    maxWorkers: 2,
    pool: 'forks',
    // No retry: a test that fails under load has a cause to fix (a fixed wait, a race), not a second go.
  },
});
