import { DEFAULT_LOOTBOX_ADDRESS, DEFAULT_MARKETPLACE_ADDRESS } from '@mdq/chain';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, loadConfig, originAllowed } from '../src/index';

describe('loadConfig', () => {
  it('gives the embedded defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.databaseUrl).toBeUndefined();
    expect(config.network).toBe('local');
    expect(config.fullnodeUrl).toBeUndefined();
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
  });

  it('reads the fullnode and stream keys, trimmed, unset when blank', () => {
    expect(loadConfig({}).fullnodeApiKey).toBeUndefined();
    expect(loadConfig({ APTOS_FULLNODE_API_KEY: '  ' }).fullnodeApiKey).toBeUndefined();
    const config = loadConfig({ APTOS_FULLNODE_API_KEY: ' aptoslabs_abc ', APTOS_GRPC_API_KEY: 'grpc-key' });
    expect([config.fullnodeApiKey, config.grpcApiKey]).toEqual(['aptoslabs_abc', 'grpc-key']);
  });

  it('pins the API clock only when MDQ_CLOCK_AT is an ISO date-time, naming it otherwise', () => {
    expect(loadConfig({}).clockAt).toBeUndefined();
    expect(loadConfig({ MDQ_CLOCK_AT: '2025-06-01T12:00:00Z' }).clockAt?.toISOString()).toBe(
      '2025-06-01T12:00:00.000Z',
    );
    expect(() => loadConfig({ MDQ_CLOCK_AT: 'yesterday' })).toThrow(/MDQ_CLOCK_AT must be an ISO 8601/);
    expect(() => loadConfig({ MDQ_CLOCK_AT: '1700000000' })).toThrow(ConfigError);
    expect(() => loadConfig({ MDQ_CLOCK_AT: '2025-13-45T00:00:00Z' })).toThrow(ConfigError);
  });

  it('reads the live feed block with its defaults and refuses a bad value naming it', () => {
    expect(loadConfig({}).feed).toEqual({
      pollMs: 250,
      maxConnectionsPerKey: 20,
      maxQueue: 2000,
      heartbeatMs: 15_000,
      webhookPauseAfter: 10,
      webhookTimeoutMs: 10_000,
    });
    const feed = loadConfig({ MDQ_FEED_MAX_QUEUE: '50', MDQ_WEBHOOK_PAUSE_AFTER: '3' }).feed;
    expect([feed.maxQueue, feed.webhookPauseAfter]).toEqual([50, 3]);
    expect(() => loadConfig({ MDQ_FEED_POLL_MS: '0' })).toThrow(
      /MDQ_FEED_POLL_MS must be an integer from 10/,
    );
    expect(() => loadConfig({ MDQ_FEED_MAX_STREAMS_PER_KEY: 'many' })).toThrow(ConfigError);
  });

  it('reads trusted origins as origins and names a bad one', () => {
    expect(loadConfig({}).trustedOrigins).toEqual([]);
    expect(
      loadConfig({ MDQ_TRUSTED_ORIGINS: 'http://127.0.0.1:8090/metadata, https://Devnet.Example:8443' })
        .trustedOrigins,
    ).toEqual(['http://127.0.0.1:8090', 'https://devnet.example:8443']);
    expect(() => loadConfig({ MDQ_TRUSTED_ORIGINS: 'ftp://x' })).toThrow(/MDQ_TRUSTED_ORIGINS/);
  });

  it('reads the overload block with its defaults and refuses a bad value naming it', () => {
    expect(loadConfig({}).overload).toEqual({
      maxEventLoopDelayMs: 200,
      maxHeapMb: undefined,
      targetLatencyMs: 0,
      maxDbWaitMs: 0,
      maxDbWaiting: 300,
      retryAfterSeconds: 2,
      statementTimeoutMs: 10_000,
    });
    const overload = loadConfig({ MDQ_SHED_HEAP_MB: '0', MDQ_API_STATEMENT_TIMEOUT_MS: '2500' }).overload;
    expect([overload.maxHeapMb, overload.statementTimeoutMs]).toEqual([0, 2500]);
    expect(() => loadConfig({ MDQ_SHED_DB_WAITING: '-1' })).toThrow(
      /MDQ_SHED_DB_WAITING must be an integer from 0/,
    );
    expect(loadConfig({ MDQ_SHED_DB_WAIT_MS: '50' }).overload.maxDbWaitMs).toBe(50);
    expect(() => loadConfig({ MDQ_SHED_DB_WAIT_MS: 'soon' })).toThrow(/MDQ_SHED_DB_WAIT_MS/);
  });

  it('reads the retention block, refusing an hourly retention shorter than the 30-day windows', () => {
    expect(loadConfig({}).retention).toEqual({
      hourlySnapshotsDays: 90,
      rankingChangesDays: 30,
      webhookDeliveriesDays: 30,
      exportUsageDays: 7,
      batchRows: 5000,
    });
    expect(loadConfig({ MDQ_RETENTION_HOURLY_SNAPSHOTS_DAYS: '0' }).retention.hourlySnapshotsDays).toBe(0);
    expect(() => loadConfig({ MDQ_RETENTION_HOURLY_SNAPSHOTS_DAYS: '7' })).toThrow(
      /MDQ_RETENTION_HOURLY_SNAPSHOTS_DAYS must be 0 \(keep\) or at least 31/,
    );
  });

  it('fills the public fullnode for a named network', () => {
    expect(loadConfig({ APTOS_NETWORK: 'mainnet' }).fullnodeUrl).toBe(DEFAULTS.fullnodeUrls.mainnet);
  });

  it('normalizes addresses to long form', () => {
    expect(loadConfig({ MARKETPLACE_ADDRESS: '0xABC' }).marketplaceAddress).toBe(
      `0x${'abc'.padStart(64, '0')}`,
    );
  });

  it('keeps its contract defaults equal to the chain package', () => {
    expect(DEFAULTS.marketplaceAddress).toBe(DEFAULT_MARKETPLACE_ADDRESS);
    expect(DEFAULTS.lootboxAddress).toBe(DEFAULT_LOOTBOX_ADDRESS);
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT must be an integer from 0 to 65535 \(got "eighty"\)$/],
    [{ PORT: '70000' }, /^PORT must be an integer/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must use postgres: or postgresql:/],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL is not a valid URL/],
    [{ REDIS_URL: 'http://localhost' }, /^REDIS_URL must use redis:/],
    [{ APTOS_NETWORK: 'moon' }, /^APTOS_NETWORK must be one of mainnet, testnet, devnet, local/],
    [{ LOOTBOX_ADDRESS: 'xyz' }, /^LOOTBOX_ADDRESS must be an Aptos address/],
    [{ MDQ_API_KEY: 'short' }, /^MDQ_API_KEY must be at least 16 characters/],
  ])('rejects %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes a password from a bad URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:secret@h/db' })).not.toThrow(/secret/);
  });

  it('reads MDQ_CORS_ORIGINS as exact origins and *.domain patterns, naming a bad entry', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(
      loadConfig({
        MDQ_CORS_ORIGINS:
          'https://Market.example/, https://*.market.example,http://127.0.0.1:5173,https://a.b:443',
      }).corsOrigins,
    ).toEqual(['https://market.example', 'https://*.market.example', 'http://127.0.0.1:5173', 'https://a.b']);
    expect(() => loadConfig({ MDQ_CORS_ORIGINS: 'market.example' })).toThrow(
      /^MDQ_CORS_ORIGINS: "market.example" is not an origin/,
    );
    expect(() => loadConfig({ MDQ_CORS_ORIGINS: 'https://market.example/app' })).toThrow(ConfigError);
    expect(() => loadConfig({ MDQ_CORS_ORIGINS: '*' })).toThrow(ConfigError);
    expect(loadConfig({}).publishableRateLimitPerMinute).toBe(300);
  });

  it('matches an origin exactly or by its *. pattern, never the bare domain, another scheme or port', () => {
    const entries = ['https://market.example', 'https://*.shop.example'];
    expect(originAllowed(entries, 'https://market.example')).toBe(true);
    expect(originAllowed(entries, 'https://MARKET.example')).toBe(true);
    expect(originAllowed(entries, 'https://a.shop.example')).toBe(true);
    expect(originAllowed(entries, 'https://a.b.shop.example')).toBe(true);
    expect(originAllowed(entries, 'https://shop.example')).toBe(false);
    expect(originAllowed(entries, 'http://a.shop.example')).toBe(false);
    expect(originAllowed(entries, 'https://a.shop.example:8443')).toBe(false);
    expect(originAllowed(entries, 'https://evilshop.example')).toBe(false);
    expect(originAllowed(entries, 'https://market.example.evil')).toBe(false);
    expect(originAllowed(entries, 'null')).toBe(false);
  });
});
