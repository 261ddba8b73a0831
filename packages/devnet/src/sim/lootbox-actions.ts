import type { SimContext } from './context';
import type { Plan } from './plan';
import type { LootboxState } from './state';
import { mintOne } from './token-actions';

export function createLootbox(ctx: SimContext, lootbox: number): Plan {
  const spec = ctx.world.lootboxes[lootbox];
  const state = ctx.state.lootboxes[lootbox];
  if (spec === undefined || state === undefined) throw new Error(`no lootbox ${lootbox}`);
  state.created = true;
  ctx.state.collCreated[spec.collection] = 1;
  return { kind: 'create_lootbox', lootbox, sender: spec.creator, sequenceNumber: ctx.nextSeq(spec.creator) };
}

function purchasable(ctx: SimContext, lb: LootboxState, maxSupply: number): boolean {
  return (
    lb.created &&
    !lb.paused &&
    lb.purchased < maxSupply &&
    ctx.nowSecs >= lb.mintStartSecs &&
    (lb.mintEndSecs === 0 || ctx.nowSecs < lb.mintEndSecs)
  );
}

export function purchaseLootbox(ctx: SimContext): Plan | null {
  const open: number[] = [];
  ctx.state.lootboxes.forEach((lb, i) => {
    if (purchasable(ctx, lb, ctx.world.lootboxes[i]?.maxSupply ?? 0)) open.push(i);
  });
  if (open.length === 0) return null;
  const lootbox = open[ctx.rng.int(open.length)] as number;
  const lb = ctx.state.lootboxes[lootbox] as LootboxState;
  const spec = ctx.world.lootboxes[lootbox];
  if (spec === undefined) return null;
  const quantity = Math.min(spec.maxSupply - lb.purchased, ctx.rng.chance(0.7) ? 1 : ctx.rng.range(2, 3));
  const buyer = ctx.pickUser();
  lb.purchased += quantity;
  for (let i = 0; i < quantity; i++) lb.pending.push(buyer);
  const amount = lb.price * quantity;
  return {
    kind: 'purchase_lootbox',
    lootbox,
    buyer,
    quantity,
    amount,
    sender: buyer,
    sequenceNumber: ctx.nextSeq(buyer),
  };
}

export function openLootbox(ctx: SimContext): Plan | null {
  const waiting: number[] = [];
  ctx.state.lootboxes.forEach((lb, i) => {
    if (lb.pending.length > lb.pendingHead) waiting.push(i);
  });
  if (waiting.length === 0) return null;
  const lootbox = waiting[ctx.rng.int(waiting.length)] as number;
  const lb = ctx.state.lootboxes[lootbox] as LootboxState;
  const spec = ctx.world.lootboxes[lootbox];
  if (spec === undefined) return null;
  const owner = lb.pending[lb.pendingHead++] as number;
  // Draw the tier by weight among tiers that still have room.
  const weights = spec.tiers.map((t, i) => ((lb.tierMinted[i] ?? 0) < t.maxSupply ? t.weight : 0));
  const tier = ctx.rng.pickWeighted(weights);
  lb.tierMinted[tier] = (lb.tierMinted[tier] ?? 0) + 1;
  lb.minted++;
  const minted = mintOne(ctx, spec.collection, owner, tier);
  return { kind: 'open_lootbox', lootbox, owner, minted, sender: owner, sequenceNumber: ctx.nextSeq(owner) };
}

export function updateLootbox(ctx: SimContext): Plan | null {
  const candidates: number[] = [];
  ctx.state.lootboxes.forEach((lb, i) => {
    if (lb.created && (lb.mintEndSecs === 0 || ctx.nowSecs < lb.mintEndSecs)) candidates.push(i);
  });
  if (candidates.length === 0) return null;
  const lootbox = candidates[ctx.rng.int(candidates.length)] as number;
  const lb = ctx.state.lootboxes[lootbox] as LootboxState;
  const spec = ctx.world.lootboxes[lootbox];
  if (spec === undefined) return null;
  if (lb.paused) lb.paused = false;
  else if (ctx.rng.chance(0.25)) lb.paused = true;
  else lb.price = Math.max(1e5, Math.round((lb.price * (0.8 + 0.4 * ctx.rng.float())) / 1e5) * 1e5);
  return {
    kind: 'update_lootbox',
    lootbox,
    price: lb.price,
    mintStartSecs: lb.mintStartSecs,
    mintEndSecs: lb.mintEndSecs,
    paused: lb.paused,
    sender: spec.creator,
    sequenceNumber: ctx.nextSeq(spec.creator),
  };
}
