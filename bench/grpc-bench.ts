/**
 * Chain-source benchmark (run: `pnpm --filter @mdq/bench bench:grpc`; `--count N` for the chain
 * size, default 40,000; `--quick` for 8,000; `--noise S` for the mix's non-NFT share, default 0.9).
 * One devnet process serves the same chain over the fullnode REST routes and the gRPC Transaction
 * Stream; measured in one run:
 *  - fetch only, REST against gRPC (the source's own cost: the SDK's JSON or protobuf + converter);
 *  - the indexer end to end through each source, into fresh databases;
 *  - on a mainnet-shaped mix (most versions APT transfers, as on mainnet): the share of
 *    transactions the early skip rules out, and end to end with the skip against without it;
 *    then the stream with the `transaction_filter` the CLI sends: the share the server skipped,
 *    fetch only and end to end in versions/s (a filtered stream accounts for versions unsent).
 */
import {
  builtinMarketplaces,
  createRelevanceFilter,
  DEFAULT_LOOTBOX_ADDRESS,
  DEFAULT_MARKETPLACE_ADDRESS,
} from '@mdq/chain';
import { createTestDatabase } from '@mdq/db/testing';
import {
  type ChainSource,
  createDecoder,
  fullnodeSource,
  grpcSource,
  runIndexer,
  streamFilterFor,
  versionOf,
} from '@mdq/indexer';
import { noopNotifier } from '@mdq/jobs';
import { startDevnetProcess } from './devnet-process';
import { benchFlags, numberFlag } from './flags';

const values = benchFlags({ noise: { type: 'string' } });
const count = numberFlag(values, 'count', values.count, 40_000, 8_000);
const noise = Number(values.noise ?? 0.9);
const batchSize = numberFlag(values, 'batch-size', values['batch-size'], 500);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const addresses = {
  marketplaceAddress: DEFAULT_MARKETPLACE_ADDRESS,
  lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
};

type Closable = ChainSource & { close?: () => void };

function sources(devnet: {
  url: string;
  grpcUrl: string | null;
}): Record<'REST' | 'gRPC' | 'filtered gRPC', () => Closable> {
  const stream = (filtered: boolean) =>
    grpcSource({
      url: devnet.grpcUrl as string,
      tip: fullnodeSource(devnet.url).tip,
      batchSize: 1_000,
      // The filter the CLI sends: the server skips what the decoder would not read.
      ...(filtered ? { transactionFilter: streamFilterFor(addresses) } : {}),
    });
  return {
    REST: () => fullnodeSource(devnet.url),
    gRPC: () => stream(false),
    'filtered gRPC': () => stream(true),
  };
}

/**
 * Reads the whole chain through a source, nothing else; `each` sees every transaction handed out.
 * Versions/s: a filtered stream accounts for versions it does not send (`through`).
 */
async function fetchOnly(
  source: Closable,
  versions: number,
  each: (tx: unknown) => void = () => {},
): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  // A stream answers "nothing yet" while it opens: ask again (the chain is complete, so an empty
  // answer is never the end).
  for (let empty = 0; next < versions && empty < 100; ) {
    const txs = await source.fetch(next, batchSize);
    const tail = txs.at(-1);
    const last = txs.through ?? (tail ? versionOf(tail) : next - 1);
    empty = last < next ? empty + 1 : 0;
    for (const tx of txs) each(tx);
    next = last + 1;
  }
  source.close?.();
  if (next < versions) throw new Error(`fetched ${next} of ${versions}`);
  return versions / ((performance.now() - t0) / 1000);
}

async function endToEnd(source: Closable, versions: number, prefilter = true): Promise<number> {
  const target = await createTestDatabase();
  try {
    const t0 = performance.now();
    const stats = await runIndexer({
      db: target.db,
      source,
      decode: createDecoder({ ...addresses, prefilter }),
      notifier: noopNotifier,
      batchSize,
      untilCaughtUp: true,
    });
    if (stats.lastVersion !== versions - 1)
      throw new Error(`indexed up to ${stats.lastVersion} of ${versions}`);
    return versions / ((performance.now() - t0) / 1000);
  } finally {
    source.close?.();
    await target.drop();
  }
}

const rows: [string, string][] = [];

/** A generated chain's versions: its user transactions plus each block's system transactions. */
async function versionsOf(url: string): Promise<number> {
  const info = (await (await fetch(url)).json()) as { ledger_version: string };
  return Number(info.ledger_version) + 1;
}

// The NFT-only chain: every version is marketplace or token traffic.
const nft = await startDevnetProcess(count, ['--grpc-port', '0']);
const nftSources = sources(nft);
const nftVersions = await versionsOf(nft.url);
const fetched = {
  REST: await fetchOnly(nftSources.REST(), nftVersions),
  gRPC: await fetchOnly(nftSources.gRPC(), nftVersions),
};
const indexed = {
  REST: await endToEnd(nftSources.REST(), nftVersions),
  gRPC: await endToEnd(nftSources.gRPC(), nftVersions),
};
nft.stop();
rows.push(
  ['NFT-only chain: fetch only, REST (baseline)', `${fmt(fetched.REST)} tx/s`],
  [
    'NFT-only chain: fetch only, gRPC',
    `${fmt(fetched.gRPC)} tx/s (${(fetched.gRPC / fetched.REST).toFixed(2)}× REST)`,
  ],
  ['NFT-only chain: end to end, REST (baseline)', `${fmt(indexed.REST)} tx/s`],
  [
    'NFT-only chain: end to end, gRPC',
    `${fmt(indexed.gRPC)} tx/s (${(indexed.gRPC / indexed.REST).toFixed(2)}× REST)`,
  ],
);

// The mainnet-shaped mix, read through gRPC (the path a mainnet deployment uses).
const mix = await startDevnetProcess(count, ['--grpc-port', '0', '--noise-share', String(noise)]);
const mixSources = sources(mix);
const mixVersions = await versionsOf(mix.url);
const relevant = createRelevanceFilter({
  marketplaces: builtinMarketplaces(addresses.marketplaceAddress),
  lootboxAddress: addresses.lootboxAddress,
});
let skipped = 0;
const mixFetch = await fetchOnly(mixSources.gRPC(), mixVersions, (tx) => {
  if (!relevant(tx)) skipped += 1;
});
const withSkip = await endToEnd(mixSources.gRPC(), mixVersions, true);
const withoutSkip = await endToEnd(mixSources.gRPC(), mixVersions, false);
let sent = 0;
const filteredFetch = await fetchOnly(mixSources['filtered gRPC'](), mixVersions, () => {
  sent += 1;
});
const filteredEnd = await endToEnd(mixSources['filtered gRPC'](), mixVersions, true);
mix.stop();
rows.push(
  [
    `mix (${Math.round(noise * 100)}% APT transfers): skipped before decoding`,
    `${((skipped / mixVersions) * 100).toFixed(1)}% of ${fmt(mixVersions)} versions`,
  ],
  ['mix: fetch only, gRPC (baseline)', `${fmt(mixFetch)} tx/s`],
  ['mix: end to end, gRPC, no early skip (baseline)', `${fmt(withoutSkip)} tx/s`],
  [
    'mix: end to end, gRPC, early skip',
    `${fmt(withSkip)} tx/s (${(withSkip / withoutSkip).toFixed(2)}× without, ${(withSkip / mixFetch).toFixed(2)}× fetch only)`,
  ],
  [
    'mix: filtered gRPC, share the server skipped',
    `${(((mixVersions - sent) / mixVersions) * 100).toFixed(1)}% of ${fmt(mixVersions)} versions`,
  ],
  [
    'mix: fetch only, filtered gRPC',
    `${fmt(filteredFetch)} versions/s (${(filteredFetch / mixFetch).toFixed(2)}× unfiltered)`,
  ],
  [
    'mix: end to end, filtered gRPC',
    `${fmt(filteredEnd)} versions/s (${(filteredEnd / withSkip).toFixed(2)}× unfiltered with early skip)`,
  ],
);

console.log(
  `\n${fmt(count)} user transactions per chain (${fmt(nftVersions)} and ${fmt(mixVersions)} versions with each block's system transactions), batches of ${batchSize}\n\n| measure | value |\n|---|---|`,
);
for (const [measure, value] of rows) console.log(`| ${measure} | ${value} |`);
process.exit(0);
