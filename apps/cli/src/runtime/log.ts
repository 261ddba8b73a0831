import type { Config } from '@mdq/config';
import { createLogger, type Logger, processLogger, registerSecret, setProcessLogger } from '@mdq/log';

/**
 * The process's logger from MDQ_LOG_LEVEL, set once before anything that logs starts: every part
 * (API, indexer, worker, the connection pools) then writes the same JSON lines to stderr.
 */
export function configureLogging(config: Config): void {
  // The operator's own keys need not follow mdq's key format: cut them from every line by value.
  for (const secret of [config.apiKey, config.adminKey, config.grpcApiKey]) registerSecret(secret);
  setProcessLogger(createLogger({ level: config.logLevel }));
}

/** The logger of one part of the process (`api`, `indexer`, `worker`): the `component` field. */
export function componentLogger(component: string): Logger {
  return processLogger().child({ component });
}
