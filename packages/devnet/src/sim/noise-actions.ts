import type { SimContext } from './context';
import type { Plan } from './plan';

/** An APT transfer between two wallets: the bulk of real chain traffic, and none of mdq's business. */
export function coinTransfer(ctx: SimContext): Plan {
  const from = ctx.pickUser();
  const to = ctx.pickOtherUser(from);
  return {
    kind: 'coin_transfer',
    from,
    to,
    amount: 1_000 + ctx.rng.int(5_000_000_000),
    sender: from,
    sequenceNumber: ctx.nextSeq(from),
  };
}
