import type { Command } from 'commander';
import { UsageError } from '../runtime/fail';
import { withDb } from './keys';

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);

/** `mdq webhooks …`: the same endpoints as the API's /webhooks, for an operator acting for a key. */
export function webhooksCommand(program: Command): void {
  const hooks = program
    .command('webhooks')
    .description('Register, list, pause, resume and remove live-feed webhook endpoints');

  hooks
    .command('add')
    .description('Register an endpoint for a key and print its signing secret once')
    .requiredOption('--key-id <keyId>', 'the API key it belongs to (`keys list`)')
    .requiredOption('--url <url>', 'http(s) target')
    .option('--kinds <kinds>', 'comma-separated event kinds')
    .option('--collection-id <ids>', 'comma-separated collection ids')
    .option('--token-id <ids>', 'comma-separated token ids')
    .option('--wallet <addresses>', 'comma-separated wallets (buyer, seller, from or to)')
    .option('--marketplace <names>', 'comma-separated marketplaces')
    .option('--since <id>', "start after this event id, or 'earliest' (default: now)")
    .action(async (opts: Record<string, string | undefined>) => {
      const { FEED_KINDS, FEED_START, parseFeedEventId } = await import('@mdq/db/feed');
      const { isAddress, normalizeAddress } = await import('@mdq/chain');
      if (!/^https?:\/\//.test(opts['url'] ?? '')) throw new UsageError('--url must be an http(s) URL');
      const addresses = (flag: string, value: string | undefined) => {
        const items = list(value);
        const bad = items?.find((v) => !isAddress(v));
        if (bad) throw new UsageError(`--${flag} holds a bad address: ${bad}`);
        return items?.map(normalizeAddress);
      };
      const kinds = list(opts['kinds']);
      const unknown = kinds?.filter((k) => !(FEED_KINDS as readonly string[]).includes(k));
      if (unknown?.length)
        throw new UsageError(`unknown kinds ${unknown.join(', ')}; known: ${FEED_KINDS.join(', ')}`);
      const since = opts['since'];
      const start = since === 'earliest' ? FEED_START : since ? parseFeedEventId(since) : undefined;
      if (start === null) throw new UsageError(`--since must be '<version>:<eventIndex>' or 'earliest'`);
      const filter = {
        ...(kinds ? { kinds } : {}),
        ...(opts['collectionId'] ? { collectionIds: addresses('collection-id', opts['collectionId']) } : {}),
        ...(opts['tokenId'] ? { tokenIds: addresses('token-id', opts['tokenId']) } : {}),
        ...(opts['wallet'] ? { wallets: addresses('wallet', opts['wallet']) } : {}),
        ...(opts['marketplace'] ? { marketplaces: list(opts['marketplace']) } : {}),
      };
      await withDb(async (db) => {
        const { createWebhookEndpoint } = await import('@mdq/db/feed');
        const created = await createWebhookEndpoint(db, {
          keyId: opts['keyId'] ?? '',
          url: opts['url'] ?? '',
          filter,
          after: start ?? null,
        });
        console.log(
          `endpoint: ${created.endpointId}\nsecret: ${created.secret}\n(store it now: it is not shown again)`,
        );
      });
    });

  hooks
    .command('list')
    .description('List endpoints (all keys, or one)')
    .option('--key-id <keyId>', 'only this key')
    .action(async (opts: { keyId?: string }) => {
      await withDb(async (db) => {
        const { listWebhookEndpoints } = await import('@mdq/db/feed');
        const rows = await listWebhookEndpoints(db, opts.keyId);
        for (const e of rows) {
          console.log(
            `${e.endpointId}\t${e.keyId}\t${e.status}\tfailures ${e.failures}\tthrough ${e.deliveredThrough}\t${e.url}\t${JSON.stringify(e.filter)}`,
          );
        }
        if (rows.length === 0) console.log('no webhook endpoints');
      });
    });

  for (const [action, status] of [
    ['pause', 'paused'],
    ['resume', 'active'],
  ] as const) {
    hooks
      .command(action)
      .description(action === 'pause' ? 'Pause deliveries (the backlog is kept)' : 'Resume deliveries')
      .argument('<endpointId>')
      .action(async (endpointId: string) => {
        await withDb(async (db) => {
          const { setWebhookStatus } = await import('@mdq/db/feed');
          if (!(await setWebhookStatus(db, endpointId, status)))
            throw new UsageError(`no endpoint ${endpointId}`);
          console.log(`${endpointId} ${status}`);
        });
      });
  }

  hooks
    .command('remove')
    .description('Delete an endpoint and its delivery log')
    .argument('<endpointId>')
    .action(async (endpointId: string) => {
      await withDb(async (db) => {
        const { deleteWebhookEndpoint } = await import('@mdq/db/feed');
        if (!(await deleteWebhookEndpoint(db, endpointId))) throw new UsageError(`no endpoint ${endpointId}`);
        console.log(`removed ${endpointId}`);
      });
    });

  hooks
    .command('deliveries')
    .description('Delivery log of an endpoint, newest first')
    .argument('<endpointId>')
    .option('--limit <n>', 'how many', '20')
    .action(async (endpointId: string, opts: { limit: string }) => {
      await withDb(async (db) => {
        const { listWebhookDeliveries } = await import('@mdq/db/feed');
        for (const d of await listWebhookDeliveries(db, endpointId, Number(opts.limit) || 20)) {
          console.log(
            `${d.attemptedAt}\t${d.eventId}\t${d.ok ? 'ok' : 'failed'}\t${d.statusCode ?? '-'}\t${d.error ?? ''}`,
          );
        }
      });
    });
}
