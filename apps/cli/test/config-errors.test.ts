import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

describe('mdq configuration errors', () => {
  it.each([
    [{ PORT: 'eighty' }, 'mdq: PORT must be an integer from 0 to 65535 (got "eighty")'],
    [{ DATABASE_URL: 'mysql://db/x' }, 'mdq: DATABASE_URL must use postgres: or postgresql: (got mysql:)'],
    [
      { APTOS_NETWORK: 'moon' },
      'mdq: APTOS_NETWORK must be one of mainnet, testnet, devnet, local (got "moon")',
    ],
  ])('stops with one line naming the variable for %j', async (env, line) => {
    const result = await runCli(['api'], env);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(line);
  });

  it('names a missing database for commands that do not start one', async () => {
    const result = await runCli(['api'], { MDQ_DATA_DIR: '/nonexistent/mdq' });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^mdq: DATABASE_URL is not set and no embedded database is running/);
  });

  it('rejects bad flags with exit code 2', async () => {
    const result = await runCli(['indexer', '--from', 'abc'], {
      APTOS_FULLNODE_URL: 'http://127.0.0.1:1/v1',
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('mdq: --from must be a non-negative integer (got "abc")');
  });
});

describe('mdq --help', () => {
  it.each([['start'], ['api'], ['indexer'], ['worker'], ['backfill'], ['migrate'], ['keys'], ['signals']])(
    'documents %s',
    async (command) => {
      const result = await runCli([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: mdq ${command}`);
    },
  );

  it('documents the devnet knobs', async () => {
    const result = await runCli(['devnet', '--help']);
    expect(result.code).toBe(0);
    for (const knob of ['--seed', '--port', '--preset', '--transactions DIR'])
      expect(result.stdout).toContain(knob);
  });

  it('rejects a devnet flag it does not know with one line and exit code 2', async () => {
    const result = await runCli(['devnet', '--sed', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe("mdq: unknown option '--sed' (Did you mean --seed?)");
  });

  it('lists every command', async () => {
    const result = await runCli(['--help']);
    for (const command of [
      'start',
      'api',
      'indexer',
      'worker',
      'devnet',
      'migrate',
      'keys',
      'backfill',
      'signals',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`\\n\\s+${command}\\b`));
    }
  });
});
