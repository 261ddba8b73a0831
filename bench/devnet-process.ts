import { spawn } from 'node:child_process';

/** A generated devnet chain served by its own process, as a fullnode would be elsewhere. */
export async function startDevnetProcess(transactions: number): Promise<{ url: string; stop(): void }> {
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
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`devnet exited (${code}): ${out}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}
