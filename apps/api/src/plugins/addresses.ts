import type { FastifyInstance } from 'fastify';

/** Parameters holding an address or an address-shaped id; the schemas have checked their format. */
const ADDRESS_FIELDS = ['address', 'creator', 'creatorAddress', 'tokenId', 'collectionId'] as const;

/** `0xAbC` → `0x000…0abc` (AIP-40 long form), the form every row is stored in. */
export function normalizeAddress(value: string): string {
  return `0x${value.slice(2).toLowerCase().padStart(64, '0')}`;
}

function normalizeFields(target: unknown): void {
  if (typeof target !== 'object' || target === null) return;
  const record = target as Record<string, unknown>;
  for (const field of ADDRESS_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && /^0[xX][0-9a-fA-F]{1,64}$/.test(value)) {
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
