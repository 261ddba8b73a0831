import { defineConfig } from 'vitest/config';

// Real Postgres and Redis: jobs and databases take longer than vitest's 5 s default.
export default defineConfig({
  test: {
    globalSetup: ['../../packages/embedded-postgres/src/test-server.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
