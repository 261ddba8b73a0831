import type { FastifyReply } from 'fastify';

/** A fullnode-shaped error: `{ message, error_code, vm_error_code }` with the node's HTTP status. */
export class FullnodeError extends Error {
  constructor(
    readonly status: 400 | 404 | 410,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

export function sendError(reply: FastifyReply, err: FullnodeError): FastifyReply {
  return reply
    .code(err.status)
    .send({ message: err.message, error_code: err.errorCode, vm_error_code: null });
}

export const errors = {
  versionNotFound: (v: number) =>
    new FullnodeError(404, 'version_not_found', `Ledger version not found by Ledger version(${v})`),
  transactionNotFound: (v: number) =>
    new FullnodeError(404, 'transaction_not_found', `Transaction not found by Ledger version(${v})`),
  blockNotFound: (what: string) => new FullnodeError(404, 'block_not_found', `Block not found by ${what}`),
  pruned: (v: number) => new FullnodeError(410, 'version_pruned', `Ledger version(${v}) has been pruned`),
  badParam: (name: string, value: string) =>
    new FullnodeError(
      400,
      'web_framework_error',
      `failed to parse parameter \`${name}\`: invalid u64 value: ${value}`,
    ),
  badLimit: (v: number) =>
    new FullnodeError(400, 'invalid_input', `Given limit value (${v}) must not be zero`),
};

/** Parses a u64 query/path parameter; undefined stays undefined. */
export function parseU64(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw errors.badParam(name, value);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw errors.badParam(name, value);
  return n;
}
