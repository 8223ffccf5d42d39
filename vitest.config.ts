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
    // Real agents, emulators and a browser share two cores in CI: a test that fails is run
    // once more, and the report still lists it as retried.
    retry: process.env.CI ? 1 : 0,
  },
});
