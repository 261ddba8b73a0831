import { defineConfig } from 'vitest/config';

// release.test.ts builds the release and runs it as real processes: generous limits for a loaded
// 2-core machine. The global setup finds the Postgres the tests use (an embedded one when none answers).
export default defineConfig({
  test: {
    globalSetup: ['../packages/embedded-postgres/src/test-server.ts'],
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
