import { spawn } from 'node:child_process';
import { DEFAULT_LOOTBOX_ADDRESS, DEFAULT_MARKETPLACE_ADDRESS } from '@mdq/chain';
import { createDecoder } from '@mdq/indexer';

/**
 * A generated devnet chain served by its own process, as a fullnode would be elsewhere. `extra`
 * are more `mdq devnet` flags; with `--grpc-port` the Transaction Stream's URL comes back too.
 */
export async function startDevnetProcess(
  transactions: number,
  extra: string[] = [],
): Promise<{ url: string; grpcUrl: string | null; stop(): void }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      "import('@mdq/devnet').then((d) => d.runDevnetCli(process.argv.slice(1)))",
      '--',
      '--seed',
      '1',
      '--transactions-count',
      String(transactions),
      '--block-interval-ms',
      '0',
      '--port',
      '0',
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const wantsGrpc = extra.includes('--grpc-port');
  const { url, grpcUrl } = await new Promise<{ url: string; grpcUrl: string | null }>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const rest = /listening on (\S+)/.exec(out)?.[1];
      const grpc = /gRPC Transaction Stream on (\S+)/.exec(out)?.[1] ?? null;
      if (rest && (grpc || !wantsGrpc)) resolve({ url: rest, grpcUrl: grpc });
    });
    child.on('exit', (code) => reject(new Error(`devnet exited (${code}): ${out}`)));
  });
  return { url, grpcUrl, stop: () => child.kill('SIGTERM') };
}

/**
 * The port of the API bench's devnet, built and live: the chain's token and collection URIs name the
 * serving devnet's origin, so the live run's devnet must listen where the template's did for its
 * worker to fetch the documents the template stored (and refresh them).
 */
export const BENCH_DEVNET_PORT = 18_090;
export const BENCH_DEVNET_ORIGIN = `http://127.0.0.1:${BENCH_DEVNET_PORT}`;

/** The decoder for the chain a devnet process serves (the default marketplace and lootbox contracts). */
export function devnetProcessDecoder() {
  return createDecoder({
    marketplaceAddress: DEFAULT_MARKETPLACE_ADDRESS,
    lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
  });
}
