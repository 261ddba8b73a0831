import { defineConfig } from 'vitest/config';

// The CLI tests run `mdq` as real processes; `start` boots Postgres, a devnet and the whole service.
// The global setup finds the Postgres the tests use (an embedded one when none answers).
export default defineConfig({
  test: {
    globalSetup: ['../../packages/embedded-postgres/src/test-server.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two files at a time, as the API suite (apps/api/vitest.config.ts): much of a file's time is
    // waiting on the processes and chains it starts, and one at a time left a core idle.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
