import type { SimContext } from './context';
import { closeListingOf, fairPrice, isSellable, listToken, startHolding } from './market-actions';
import type { Plan, WashLabel } from './plan';
import type { WashStep } from './state';

/*
 * Wash-trade campaigns: a wallet (or a ring of wallets) trades a token with itself to fake volume.
 * Each campaign is a short script of list / fill transactions on consecutive versions, queued in the
 * state so that no other action can touch the token half-way; every fill carries the campaign's label,
 * which the facts file publishes so detection can be measured against it.
 */
const CAMPAIGNS: readonly WashLabel[] = ['self_trade', 'seller_funded', 'round_trip', 'token_churn'];

/** Distinct wallets, none equal to `owner`, drawn with the usual skew. */
function accomplices(ctx: SimContext, owner: number, count: number): number[] {
  const ring: number[] = [];
  const accounts = ctx.world.config.accounts;
  while (ring.length < count) {
    let u = ctx.pickUser();
    while (u === owner || ring.includes(u)) u = (u + 1) % accounts;
    ring.push(u);
  }
  return ring;
}

/** Starts a campaign on a free token of an active collection and returns its first transaction. */
export function startWashCampaign(ctx: SimContext): Plan | null {
  const collection = ctx.pickActiveCollection();
  if (collection < 0) return null;
  const token = ctx.pickToken(collection, (t) => isSellable(ctx, t));
  if (token < 0) return null;
  const owner = ctx.state.tokOwner[token] as number;
  const label = CAMPAIGNS[ctx.rng.int(CAMPAIGNS.length)] as WashLabel;
  // Wash traders print at or above the market to lift the collection's numbers.
  const price = ctx.roundPrice(fairPrice(ctx, token) * (1 + 0.5 * ctx.rng.float()));
  const hops: [number, number][] = [];
  if (label === 'self_trade') hops.push([owner, owner]);
  else if (label === 'seller_funded') hops.push([owner, accomplices(ctx, owner, 1)[0] as number]);
  else if (label === 'round_trip') {
    const [b] = accomplices(ctx, owner, 1) as [number];
    hops.push([owner, b], [b, owner]);
  } else {
    const [b, c, d] = accomplices(ctx, owner, 3) as [number, number, number];
    hops.push([owner, b], [b, c], [c, d]);
  }
  const steps: WashStep[] = [];
  for (const [, buyer] of hops) {
    steps.push({ kind: 'list', token, buyer, label, funding: 0 });
    steps.push({ kind: 'fill', token, buyer, label, funding: label === 'seller_funded' ? price : 0 });
  }
  ctx.state.washQueue = steps;
  ctx.state.washPrice = price;
  return runWashStep(ctx);
}

/** Runs the next queued campaign transaction, or null when none is queued. */
export function runWashStep(ctx: SimContext): Plan | null {
  const step = ctx.state.washQueue.shift();
  if (step === undefined) return null;
  if (step.kind === 'list') return listToken(ctx, step.token, ctx.state.washPrice);
  const plan = closeListingOf(ctx, step.token, step.buyer, true);
  // The ring's last buyer sits on the token like any holder once the campaign is over.
  if (ctx.state.washQueue.length === 0) startHolding(ctx, step.token);
  return step.funding > 0
    ? { ...plan, wash: step.label, funding: step.funding }
    : { ...plan, wash: step.label };
}
