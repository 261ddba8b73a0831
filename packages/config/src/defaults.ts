export const NETWORKS = ['mainnet', 'testnet', 'devnet', 'local'] as const;
export type Network = (typeof NETWORKS)[number];

// Kept in sync with @mdq/chain's DEFAULT_MARKETPLACE_ADDRESS / DEFAULT_LOOTBOX_ADDRESS (tested there is
// no drift in config.test.ts); config stays dependency-free so every process can load it first.
export const DEFAULTS = {
  host: '127.0.0.1',
  port: 3000,
  devnetPort: 8090,
  dataDir: '.data',
  // As root only: where the `postgres` OS user can reach the embedded binaries and cluster.
  sharedDir: '/var/lib/mdq',
  // A backfill's rate grows with the batch: each table's statement, its plan and its index descents
  // are paid per batch, not per row (1M devnet chain: 1,000 → 530 s, 2,000 → 451 s, 4,000 → 389 s;
  // docs/PERFORMANCE.md). At the tip a batch is whatever is new, so this costs no latency there.
  indexerBatchSize: 4000,
  rateLimitPerMinute: 1200,
  // A publishable key is counted per visitor (key and client IP): one page view makes tens of
  // requests, a person browsing a few pages a minute stays far below this.
  publishableRateLimitPerMinute: 300,
  readyMaxLagSeconds: 120,
  exportRowsPerDay: 10_000_000,
  apiCacheEntries: 10_000,
  apiCacheMegabytes: 64,
  mediaCacheMb: 1024,
  marketplaceAddress: '0x0000000000000000000000000000000000000000000000000000000000006d71',
  lootboxAddress: '0x0000000000000000000000000000000000000000000000000000000000006d72',
  ipfsGateways: ['https://ipfs.io/ipfs/', 'https://cloudflare-ipfs.com/ipfs/'],
  arweaveGateway: 'https://arweave.net/',
  fullnodeUrls: {
    mainnet: 'https://fullnode.mainnet.aptoslabs.com/v1',
    testnet: 'https://fullnode.testnet.aptoslabs.com/v1',
    devnet: 'https://fullnode.devnet.aptoslabs.com/v1',
    local: undefined,
  } satisfies Record<Network, string | undefined>,
} as const;
