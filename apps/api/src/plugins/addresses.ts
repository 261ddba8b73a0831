import { isAddress, normalizeAddress } from '@mdq/chain/address';
import type { FastifyInstance } from 'fastify';

/** Parameters holding an address or an address-shaped id; the schemas have checked their format. */
const ADDRESS_FIELDS = ['address', 'creator', 'creatorAddress', 'tokenId', 'collectionId'] as const;

function normalizeFields(target: unknown): void {
  if (typeof target !== 'object' || target === null) return;
  const record = target as Record<string, unknown>;
  for (const field of ADDRESS_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && isAddress(value)) {
      record[field] = normalizeAddress(value);
    }
  }
}

/** Runs after validation, so that handlers only ever see long-form addresses. */
export function registerAddressNormalization(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    normalizeFields(request.query);
    normalizeFields(request.body);
  });
}
