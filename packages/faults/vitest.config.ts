import { defineConfig } from 'vitest/config';

// Real processes, a private Postgres and a private Redis, restarted on purpose: generous limits
// for a loaded 2-core machine (at load 35 a scenario took over 4 minutes and a set-up over 2);
// files one at a time so their load does not add up.
export default defineConfig({
  test: {
    include: ['test/**/*.fault.ts'],
    testTimeout: 600_000,
    hookTimeout: 400_000,
    fileParallelism: false,
  },
});
