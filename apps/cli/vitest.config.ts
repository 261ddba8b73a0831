import { defineConfig } from 'vitest/config';

// The CLI tests run `mdq` as real processes; `start` boots Postgres, a devnet and the whole service.
export default defineConfig({ test: { testTimeout: 120_000, hookTimeout: 120_000 } });
