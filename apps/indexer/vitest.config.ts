import { defineConfig } from 'vitest/config';

// Tests talk to real Postgres, Redis and devnet servers; on a loaded 2-core CI machine a test that
// pages a whole chain through the API can take tens of seconds, so the limits are generous.
// The global setup finds the Postgres the tests use (an embedded one when none answers).
export default defineConfig({
  test: {
    globalSetup: ['../../packages/embedded-postgres/src/test-server.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at a time, as the API suite (apps/api/vitest.config.ts): much of a file's time is
    // waiting on the processes and chains it starts, and one at a time left a core idle.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
