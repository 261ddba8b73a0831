import { bump, type SimContext } from './context';
import type { MintedToken, Plan } from './plan';

export function createCollection(ctx: SimContext, collection: number): Plan {
  const spec = ctx.world.collections[collection];
  if (spec === undefined) throw new Error(`no collection ${collection}`);
  ctx.state.collCreated[collection] = 1;
  const v1CollectionSeq = spec.standard === 'v1' ? bump(ctx.state.v1CollectionEvents, spec.creator) : 0;
  return {
    kind: 'create_collection',
    collection,
    v1CollectionSeq,
    sender: spec.creator,
    sequenceNumber: ctx.nextSeq(spec.creator),
  };
}

/** Mints one token into `collection` for `to` and records every counter the renderer shows. */
export function mintOne(ctx: SimContext, collection: number, to: number, tier: number): MintedToken {
  const s = ctx.state;
  const spec = ctx.world.collections[collection];
  if (spec === undefined) throw new Error(`no collection ${collection}`);
  const serial = (s.collMinted[collection] ?? 0) + 1;
  s.collMinted[collection] = serial;
  s.collSupply[collection] = (s.collSupply[collection] ?? 0) + 1;
  const mintSeq = bump(s.collMintEvents, collection);
  const token = s.addToken(collection, serial, to, tier);
  const minted: MintedToken = {
    token,
    serial,
    to,
    mintSeq,
    creatorDepositSeq: 0,
    creatorWithdrawSeq: 0,
    receiverDepositSeq: 0,
    tokenDataSeq: 0,
    tier,
  };
  if (spec.standard === 'v1') {
    minted.tokenDataSeq = bump(s.v1TokenDataEvents, spec.creator);
    bump(s.v1MintEvents, spec.creator);
    minted.creatorDepositSeq = bump(s.v1Deposit, spec.creator);
    minted.creatorWithdrawSeq = bump(s.v1Withdraw, spec.creator);
    minted.receiverDepositSeq = bump(s.v1Deposit, to);
  } else {
    // The creator mints, then transfers to the receiver: one TransferEvent on the new token.
    s.tokTransfers[token] = 1;
  }
  return minted;
}

function hasRoom(ctx: SimContext, collection: number): boolean {
  const spec = ctx.world.collections[collection];
  if (spec === undefined || ctx.state.collCreated[collection] !== 1 || spec.lootbox >= 0) return false;
  return spec.maxSupply === 0 || (ctx.state.collMinted[collection] ?? 0) < spec.maxSupply;
}

export function mint(ctx: SimContext): Plan | null {
  // Before the first weight bucket includes any collection, start the scan at collection 0.
  let collection = Math.max(0, ctx.pickMintCollection());
  const n = ctx.world.regularCollections;
  // A full collection hands its mint to the next one with room (deterministic, no extra draws).
  for (let i = 0; i < n && !hasRoom(ctx, collection); i++) collection = (collection + 1) % n;
  if (!hasRoom(ctx, collection)) return null;
  const spec = ctx.world.collections[collection];
  if (spec === undefined) return null;
  const batch = ctx.rng.chance(0.25) ? ctx.rng.range(2, 3) : 1;
  const tokens: MintedToken[] = [];
  for (let i = 0; i < batch && hasRoom(ctx, collection); i++)
    tokens.push(mintOne(ctx, collection, ctx.pickUser(), -1));
  return {
    kind: 'mint',
    collection,
    tokens,
    sender: spec.creator,
    sequenceNumber: ctx.nextSeq(spec.creator),
  };
}

export function isFree(ctx: SimContext, token: number): boolean {
  return (ctx.state.tokOwner[token] ?? -1) >= 0 && ctx.state.tokListing[token] === 0;
}

function isV1(ctx: SimContext, token: number): boolean {
  return ctx.world.collections[ctx.state.tokColl[token] ?? 0]?.standard === 'v1';
}

/**
 * Moves a free token between wallets and returns the sequence numbers the events need: for v2 the
 * token's TransferEvent sequence, for v1 the sender's withdraw and receiver's deposit.
 */
export function moveToken(
  ctx: SimContext,
  token: number,
  from: number,
  to: number,
): { transferSeq: number; v1Seqs: [number, number] } {
  const s = ctx.state;
  s.tokOwner[token] = to;
  if (isV1(ctx, token)) {
    return { transferSeq: 0, v1Seqs: [bump(s.v1Withdraw, from), bump(s.v1Deposit, to)] };
  }
  return { transferSeq: bump(s.tokTransfers, token), v1Seqs: [0, 0] };
}

export function transfer(ctx: SimContext): Plan | null {
  const collection = ctx.pickActiveCollection();
  if (collection < 0) return null;
  const token = ctx.pickToken(collection, (t) => isFree(ctx, t));
  if (token < 0) return null;
  const from = ctx.state.tokOwner[token] as number;
  const to = ctx.pickOtherUser(from);
  const { transferSeq, v1Seqs } = moveToken(ctx, token, from, to);
  return {
    kind: 'transfer',
    token,
    from,
    to,
    transferSeq,
    v1Seqs,
    sender: from,
    sequenceNumber: ctx.nextSeq(from),
  };
}

export function burn(ctx: SimContext): Plan | null {
  const collection = ctx.pickActiveCollection();
  if (collection < 0) return null;
  const token = ctx.pickToken(collection, (t) => isFree(ctx, t));
  if (token < 0) return null;
  const s = ctx.state;
  const owner = s.tokOwner[token] as number;
  s.tokOwner[token] = -1;
  s.collSupply[collection] = (s.collSupply[collection] ?? 1) - 1;
  const burnSeq = bump(s.collBurnEvents, collection);
  const v1Seqs: [number, number] = isV1(ctx, token)
    ? [bump(s.v1Withdraw, owner), bump(s.v1Burn, owner)]
    : [0, 0];
  return { kind: 'burn', token, owner, burnSeq, v1Seqs, sender: owner, sequenceNumber: ctx.nextSeq(owner) };
}
