import { defineConfig } from 'vitest/config';

// The CLI tests run `mdq` as real processes; `start` boots Postgres, a devnet and the whole service.
// The global setup finds the Postgres the tests use (an embedded one when none answers).
export default defineConfig({
  test: {
    globalSetup: ['../../packages/embedded-postgres/src/test-server.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
