import type { Command } from 'commander';

export function startCommand(program: Command): void {
  program
    .command('start')
    .description(
      'Run the whole service: database (embedded when no DATABASE_URL), devnet chain (network local), ' +
        'indexer, worker and API; prints the base URL and a demo API key',
    )
    .action(async () => (await import('../run/start')).runStart());
}
