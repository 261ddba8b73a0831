import type { Command } from 'commander';
import type { IndexerFlags } from '../run/indexer';
import { UsageError } from '../runtime/fail';

const run = async (flags: IndexerFlags) => (await import('../run/indexer')).runIndexerCommand(flags);

export function indexerCommand(program: Command): void {
  const attach = (command: Command) =>
    command
      .option(
        '--from <version>',
        'first version to read; without --to, where the follower starts on an empty checkpoint (as MDQ_START_VERSION)',
      )
      .option('--to <version>', 'last version to read, inclusive (default: follow the tip)')
      .option('--until-caught-up', 'stop once the tip seen at start-up is reached')
      .option('--batch-size <n>', 'transactions per database transaction (default: MDQ_INDEXER_BATCH_SIZE)')
      .option(
        '--sparse',
        'the fullnode serves a recorded chain whose versions skip (`mdq devnet --transactions`); otherwise a gap stops the run',
      );

  attach(
    program
      .command('indexer')
      .description('Follow APTOS_FULLNODE_URL and write decoded chain state to the database'),
  ).action(run);

  attach(
    program
      .command('backfill')
      .description('Index a past version range (--from required) beside the live follower'),
  ).action(async (flags: IndexerFlags) => {
    if (flags.from === undefined) throw new UsageError('backfill needs --from <version>');
    await run({ ...flags, untilCaughtUp: true, backfill: true });
  });
}
