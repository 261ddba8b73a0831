import { defineConfig } from 'vitest/config';

// Real processes, a private Postgres and a private Redis, restarted on purpose: generous limits
// for a loaded 2-core machine; files one at a time so their load does not add up.
export default defineConfig({
  test: {
    include: ['test/**/*.fault.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
