import { isAddress, normalizeAddress } from '@mdq/chain/address';
import type { FastifyInstance } from 'fastify';

/**
 * Parameters holding an address or an address-shaped id, in the path, the query or the body; the
 * schemas have checked their format. The one place the API turns short or mixed-case forms into
 * the long form the database stores (a value that is not an address is left as it is).
 */
const ADDRESS_FIELDS = [
  'address',
  'creator',
  'creatorAddress',
  'tokenId',
  'collectionId',
  'wallet',
  'id',
] as const;

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

/**
 * Runs after validation, so that handlers only ever see long-form addresses. A callback hook, as
 * the API's other per-request hooks that do no I/O: an async one costs a promise per request.
 */
export function registerAddressNormalization(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    normalizeFields(request.params);
    normalizeFields(request.query);
    normalizeFields(request.body);
    done();
  });
}
