import { loadConfig } from '@mdq/config';
import type { Command } from 'commander';

export function migrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations (a no-op when up to date)')
    .action(async () => {
      const config = loadConfig();
      const { resolveDatabase } = await import('../runtime/database');
      const database = await resolveDatabase(config, { mayStart: true, migrate: true });
      console.log(`mdq: database migrated (${database.origin})`);
      await database.close();
    });
}
