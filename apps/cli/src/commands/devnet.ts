import type { Command } from 'commander';
import { UsageError } from '../runtime/fail';
import { onShutdown } from '../runtime/lifecycle';

export function devnetCommand(program: Command): void {
  program
    .command('devnet')
    .description('Serve the local devnet chain simulator as an Aptos fullnode (see `mdq devnet --help`)')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_options: unknown, command: Command) => {
      const { runDevnetCli } = await import('@mdq/devnet');
      let server: Awaited<ReturnType<typeof runDevnetCli>>;
      try {
        server = await runDevnetCli(command.args);
      } catch (error) {
        // Argument mistakes (unknown flag, bad number) are the operator's to fix: one line, exit 2.
        const code = (error as { code?: string }).code ?? '';
        // commander words its own messages "error: unknown option '--x'"; mdq prefixes its own.
        const message = (error instanceof Error ? error.message : String(error))
          .replace(/^error: /, '')
          .replace(/\s*\n\s*/g, ' ');
        if (code.startsWith('commander.') || message.startsWith('--')) throw new UsageError(message);
        throw error;
      }
      if (server) onShutdown([server.close]);
    });
}
