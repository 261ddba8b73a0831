import { defineConfig } from 'vitest/config';

// Real Postgres and Redis: jobs and databases take longer than vitest's 5 s default.
export default defineConfig({
  test: { globalSetup: ['@mdq/db/test-server'], testTimeout: 30_000, hookTimeout: 60_000 },
});
