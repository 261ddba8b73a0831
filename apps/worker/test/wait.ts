import { createLogger } from '@mdq/log';
import type { WorkerLogger } from '../src/logger';

/** Retries an assertion until it passes or the timeout expires (jobs run asynchronously). */
export async function eventually(assertion: () => Promise<void>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export const silentLogger: WorkerLogger = createLogger({ level: 'silent' });
