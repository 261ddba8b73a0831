import { createWriteStream, writeFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { streamTransactions } from './chain/stream';
import {
  BLOCK_ENDINGS,
  type BlockEnding,
  DEFAULT_END_TIME_MS,
  PRESET_TRANSACTIONS,
  type Preset,
} from './config';
import type { GrpcFaults } from './grpc/grpc-server';
import { DEFAULT_DEVNET_PORT, type DevnetServerOptions, startDevnetServer } from './server/start-server';

export const DEVNET_HELP = `mdq devnet — a local Aptos fullnode serving a simulated NFT market

Usage: mdq devnet [options]

Chain (generated mode)
  --seed N                  PRNG seed; same seed + options => same chain byte for byte (default 1)
  --preset NAME             tiny (${PRESET_TRANSACTIONS.tiny}) | small (${PRESET_TRANSACTIONS.small}) | medium (${PRESET_TRANSACTIONS.medium}) | large (${PRESET_TRANSACTIONS.large}) transactions (default small)
  --scale NAME              alias of --preset
  --transactions-count N    exact number of initial user transactions (overrides --preset)
  --days D                  days the initial chain spans (default 45)
  --end-time T              timestamp of the last initial transaction: ISO date, ms since epoch,
                            or "now" (wall clock, so 24h windows are live) (default ${new Date(DEFAULT_END_TIME_MS).toISOString()})
  --block-size N            user transactions per block in the initial chain (default 4); every block
                            also has a block_metadata_transaction first and a block-ending one last
  --block-ending KIND       epilogue (block_epilogue_transaction, AIP-88, as mainnet today) |
                            state-checkpoint (the older state_checkpoint_transaction) (default epilogue)
  --validator-every N       every N-th block carries a validator_transaction (JWK update); 0 = none
                            (default 100)
  --block-interval-ms N     live growth: a new block every N ms; 0 disables (default 1000)
  --live-block-size K       live growth: user transactions per new block (default 10)
  --oldest-version V        versions below V answer 410 (simulated pruning) (default 0)
  --marketplace-address A   marketplace module address (default 0x6d71)
  --lootbox-address A       lootbox module address (default 0x6d72)
  --checkpoint-every N      user transactions between simulator checkpoints (default max(10000, count/8))
  --noise-share S           share (0..0.95) of versions that are APT transfers touching no NFT, as
                            on mainnet (default 0)

Recorded mode
  --transactions DIR        serve every transaction JSON under DIR (proto-JSON fixtures or REST),
                            in version order; a range starting in a gap returns the next recorded
                            transactions; by_version inside a gap is 404

Server and outputs
  --port P                  listen port (default ${DEFAULT_DEVNET_PORT}; 0 picks a free port)
  --host H                  listen host (default 127.0.0.1)
  --grpc-port P             also serve the chain over the Aptos Transaction Stream gRPC service
                            (aptos.indexer.v1.RawData/GetTransactions, plaintext) on port P; 0 picks one
  --grpc-fault-rate R       test hook: each gRPC response is, with probability R (0..1), cut short and
                            the stream ended or broken, then the next 2 calls refused (seeded by --seed)
  --facts FILE              write the expected facts (JSON) of the initial chain to FILE
  --out FILE                write the initial chain as NDJSON (one REST transaction per line) and exit
  -h, --help                show this help

Routes: GET /v1, /v1/transactions?start=&limit= (max 100), /v1/transactions/by_version/:v,
        /v1/blocks/by_version/:v, /v1/blocks/by_height/:h, /v1/-/healthy
`;

function parseEndTime(value: string | undefined): number | 'now' | undefined {
  if (value === undefined) return undefined;
  if (value === 'now') return 'now';
  const n = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(n)) throw new Error(`--end-time: not a date: ${value}`);
  return n;
}

function int(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name}: not a non-negative integer: ${value}`);
  return n;
}

function preset(value: string | undefined): Preset | undefined {
  if (value === undefined) return undefined;
  if (value in PRESET_TRANSACTIONS) return value as Preset;
  throw new Error(`--preset: expected tiny | small | medium | large, got ${value}`);
}

function faults(rate: string | undefined, seed: number): GrpcFaults | undefined {
  if (rate === undefined) return undefined;
  const breakRate = Number(rate);
  if (!(breakRate >= 0 && breakRate <= 1)) throw new Error(`--grpc-fault-rate: expected 0..1, got ${rate}`);
  return { seed, breakRate };
}

function ending(value: string | undefined): BlockEnding | undefined {
  if (value === undefined) return undefined;
  const found = BLOCK_ENDINGS.find((e) => e.replace('_', '-') === value);
  if (found === undefined)
    throw new Error(`--block-ending: expected epilogue | state-checkpoint, got ${value}`);
  return found;
}

function share(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(n >= 0 && n <= 0.95)) throw new Error(`--noise-share: expected 0..0.95, got ${value}`);
  return n;
}

/**
 * The devnet's options, declared with commander like every other `mdq` command. The help text
 * stays the hand-written DEVNET_HELP: it groups the knobs by mode, which commander's list cannot.
 */
function devnetProgram(): Command {
  const program = new Command('devnet')
    .exitOverride()
    .allowExcessArguments(false)
    .configureOutput({ writeOut: (text) => process.stdout.write(text), writeErr: () => {} })
    .helpOption('-h, --help')
    .configureHelp({ formatHelp: () => DEVNET_HELP });
  for (const flag of [
    '--seed <n>',
    '--preset <name>',
    '--scale <name>',
    '--transactions-count <n>',
    '--days <d>',
    '--end-time <t>',
    '--block-size <n>',
    '--block-ending <kind>',
    '--validator-every <n>',
    '--block-interval-ms <n>',
    '--live-block-size <k>',
    '--oldest-version <v>',
    '--marketplace-address <a>',
    '--lootbox-address <a>',
    '--checkpoint-every <n>',
    '--noise-share <s>',
    '--transactions <dir>',
    '--port <p>',
    '--host <h>',
    '--grpc-port <p>',
    '--grpc-fault-rate <r>',
    '--facts <file>',
    '--out <file>',
  ])
    program.option(flag);
  return program;
}

interface DevnetFlags {
  seed?: string;
  preset?: string;
  scale?: string;
  transactionsCount?: string;
  days?: string;
  endTime?: string;
  blockSize?: string;
  blockEnding?: string;
  validatorEvery?: string;
  blockIntervalMs?: string;
  liveBlockSize?: string;
  oldestVersion?: string;
  marketplaceAddress?: string;
  lootboxAddress?: string;
  checkpointEvery?: string;
  noiseShare?: string;
  transactions?: string;
  port?: string;
  host?: string;
  grpcPort?: string;
  grpcFaultRate?: string;
  facts?: string;
  out?: string;
}

/**
 * Entry point of `mdq devnet`. Resolves once the server listens (or the --out file is written);
 * null after --help. A bad flag throws an Error whose message starts with `--` or commander's
 * CommanderError (code `commander.*`): both are the operator's to fix.
 */
export async function runDevnetCli(argv: string[]): Promise<{ close(): Promise<void> } | null> {
  const program = devnetProgram();
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError && error.code === 'commander.helpDisplayed') return null;
    throw error;
  }
  const values = program.opts<DevnetFlags>();
  const options: DevnetServerOptions = {
    seed: int('seed', values.seed),
    preset: preset(values.preset ?? values.scale),
    transactionsCount: int('transactions-count', values.transactionsCount),
    days: int('days', values.days),
    endTime: parseEndTime(values.endTime),
    blockSize: int('block-size', values.blockSize),
    blockEnding: ending(values.blockEnding),
    validatorEvery: int('validator-every', values.validatorEvery),
    blockIntervalMs: int('block-interval-ms', values.blockIntervalMs),
    liveBlockSize: int('live-block-size', values.liveBlockSize),
    oldestVersion: int('oldest-version', values.oldestVersion),
    marketplaceAddress: values.marketplaceAddress,
    lootboxAddress: values.lootboxAddress,
    checkpointEvery: int('checkpoint-every', values.checkpointEvery),
    noiseShare: share(values.noiseShare),
    transactionsDir: values.transactions,
    port: int('port', values.port),
    host: values.host,
    grpcPort: int('grpc-port', values.grpcPort),
    grpcFaults: faults(values.grpcFaultRate, int('seed', values.seed) ?? 1),
  };
  if (values.out !== undefined) {
    const endTime = options.endTime === 'now' ? Math.floor(Date.now() / 1000) * 1000 : options.endTime;
    const out = createWriteStream(values.out);
    for (const tx of streamTransactions({ ...options, endTimeMs: endTime })) {
      if (!out.write(`${JSON.stringify(tx)}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((resolve) => out.end(resolve));
    process.stdout.write(`wrote ${values.out}\n`);
    return null;
  }
  const server = await startDevnetServer(options);
  if (values.facts !== undefined) {
    const facts = server.facts();
    if (facts !== null) writeFileSync(values.facts, `${JSON.stringify(facts, null, 2)}\n`);
  }
  process.stdout.write(`mdq devnet listening on ${server.url} (ledger version ${server.ledgerVersion()})\n`);
  if (server.grpcUrl !== null)
    process.stdout.write(`mdq devnet gRPC Transaction Stream on ${server.grpcUrl}\n`);
  return server;
}
