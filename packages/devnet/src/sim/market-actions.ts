import { drawTraits } from '../world/traits';
import { bump, type SimContext } from './context';
import type { Plan } from './plan';
import type { CollectionOffer, TokenOffer } from './state';
import { isFree, moveToken } from './token-actions';

const MAX_OPEN_OFFERS = 4000;
const OFFER_LIFETIMES_SECS = [2 * 3600, 12 * 3600, 86_400, 3 * 86_400, 7 * 86_400, 30 * 86_400];

function isV1(ctx: SimContext, token: number): boolean {
  return ctx.world.collections[ctx.state.tokColl[token] ?? 0]?.standard === 'v1';
}

/** Price boost of a token from its rarity (traits or lootbox tier). */
function tokenBoost(ctx: SimContext, token: number): number {
  const collection = ctx.state.tokColl[token] ?? 0;
  const spec = ctx.world.collections[collection];
  if (spec === undefined) return 1;
  if (spec.lootbox >= 0) {
    return ctx.world.lootboxes[spec.lootbox]?.tierBoost[ctx.state.tokTier[token] ?? 0] ?? 1;
  }
  return drawTraits(ctx.world.config.seed, collection, ctx.state.tokSerial[token] ?? 0, spec.traits)
    .rarityBoost;
}

const DAY_SECS = 86_400;
/** Buyers keep what they bought for at least two days, 14 more on average (exponential), before reselling. */
const MIN_HOLD_SECS = 2 * DAY_SECS;
const MEAN_EXTRA_HOLD_SECS = 14 * DAY_SECS;

/** The new owner of `token` starts holding it. */
export function startHolding(ctx: SimContext, token: number): void {
  const extra = -Math.log(1 - ctx.rng.float()) * MEAN_EXTRA_HOLD_SECS;
  ctx.state.tokHoldUntil[token] = ctx.nowSecs + MIN_HOLD_SECS + extra;
}

/** A free token whose owner is done holding it. */
export function isSellable(ctx: SimContext, token: number): boolean {
  return isFree(ctx, token) && (ctx.state.tokHoldUntil[token] ?? 0) <= ctx.nowSecs;
}

function addListing(ctx: SimContext, token: number, price: number): number {
  const s = ctx.state;
  const collection = s.tokColl[token] ?? 0;
  const listings = s.collListings[collection] as number[];
  const id = s.nextListingId++;
  s.tokListing[token] = id;
  s.tokPrice[token] = price;
  s.tokListPos[token] = listings.length;
  listings.push(token);
  s.activeListings++;
  return id;
}

function removeListing(ctx: SimContext, token: number): void {
  const s = ctx.state;
  const listings = s.collListings[s.tokColl[token] ?? 0] as number[];
  const pos = s.tokListPos[token] ?? -1;
  const last = listings.pop() as number;
  if (last !== token) {
    listings[pos] = last;
    s.tokListPos[last] = pos;
  }
  s.tokListing[token] = 0;
  s.tokPrice[token] = 0;
  s.tokListPos[token] = -1;
  s.activeListings--;
}

export function list(ctx: SimContext): Plan | null {
  const collection = ctx.pickActiveCollection();
  if (collection < 0) return null;
  const token = ctx.pickToken(collection, (t) => isSellable(ctx, t));
  if (token < 0) return null;
  const price = ctx.roundPrice(
    ctx.priceLevel(collection) * tokenBoost(ctx, token) * Math.exp(0.25 * ctx.rng.normal()),
  );
  return listToken(ctx, token, price);
}

/** Its owner lists a free token at `price`. */
export function listToken(ctx: SimContext, token: number, price: number): Plan {
  const s = ctx.state;
  const seller = s.tokOwner[token] as number;
  const listingId = addListing(ctx, token, price);
  const v1 = isV1(ctx, token);
  // v2 tokens move into the listing object; v1 tokens leave the seller's TokenStore for escrow.
  const transferSeq = v1 ? 0 : bump(s.tokTransfers, token);
  const v1Seq = v1 ? bump(s.v1Withdraw, seller) : 0;
  const marketSeq = s.nextMarketSeq('listing_placed');
  return {
    kind: 'list',
    token,
    seller,
    listingId,
    price,
    transferSeq,
    v1Seq,
    marketSeq,
    sender: seller,
    sequenceNumber: ctx.nextSeq(seller),
  };
}

/** A collection's market price for one of its tokens (rarity included), before noise. */
export function fairPrice(ctx: SimContext, token: number): number {
  return ctx.priceLevel(ctx.state.tokColl[token] ?? 0) * tokenBoost(ctx, token);
}

function pickListedCollection(ctx: SimContext): number {
  if (ctx.state.activeListings === 0) return -1;
  for (let i = 0; i < 8; i++) {
    const c = ctx.pickActiveCollection();
    if (c >= 0 && (ctx.state.collListings[c]?.length ?? 0) > 0) return c;
  }
  return -1;
}

function randomListing(ctx: SimContext, collection: number): number {
  const listings = ctx.state.collListings[collection] as number[];
  return listings[ctx.rng.int(listings.length)] as number;
}

export function relist(ctx: SimContext): Plan | null {
  const collection = pickListedCollection(ctx);
  if (collection < 0) return null;
  const token = randomListing(ctx, collection);
  const s = ctx.state;
  const seller = s.tokOwner[token] as number;
  const old = s.tokPrice[token] ?? 0;
  const target = ctx.priceLevel(collection) * tokenBoost(ctx, token);
  const price = ctx.roundPrice(ctx.rng.chance(0.5) ? old * (0.8 + 0.2 * ctx.rng.float()) : target);
  s.tokPrice[token] = price;
  const marketSeq = s.nextMarketSeq('listing_placed');
  const listingId = s.tokListing[token] as number;
  return {
    kind: 'relist',
    token,
    seller,
    listingId,
    price,
    marketSeq,
    sender: seller,
    sequenceNumber: ctx.nextSeq(seller),
  };
}

function closeListing(ctx: SimContext, fill: boolean): Plan | null {
  const collection = pickListedCollection(ctx);
  if (collection < 0) return null;
  const s = ctx.state;
  let token = randomListing(ctx, collection);
  if (fill && ctx.rng.chance(0.6)) {
    // Buyers sweep the floor more often than they pick at random.
    for (const t of s.collListings[collection] as number[])
      if ((s.tokPrice[t] ?? 0) < (s.tokPrice[token] ?? 0)) token = t;
  }
  const seller = s.tokOwner[token] as number;
  const plan = closeListingOf(ctx, token, fill ? ctx.pickOtherUser(seller) : seller, fill);
  if (fill) startHolding(ctx, token);
  return plan;
}

/** Ends the listing of `token`: a sale to `buyer`, or (fill false) a cancellation by its seller. */
export function closeListingOf(
  ctx: SimContext,
  token: number,
  buyer: number,
  fill: boolean,
): Extract<Plan, { kind: 'fill_listing' | 'cancel_listing' }> {
  const s = ctx.state;
  const seller = s.tokOwner[token] as number;
  const price = s.tokPrice[token] ?? 0;
  const listingId = s.tokListing[token] as number;
  removeListing(ctx, token);
  s.tokOwner[token] = buyer;
  const v1 = isV1(ctx, token);
  const transferSeq = v1 ? 0 : bump(s.tokTransfers, token);
  const v1Seq = v1 ? bump(s.v1Deposit, buyer) : 0;
  const marketSeq = s.nextMarketSeq(fill ? 'listing_filled' : 'listing_canceled');
  return {
    kind: fill ? 'fill_listing' : 'cancel_listing',
    token,
    seller,
    buyer,
    listingId,
    price,
    transferSeq,
    v1Seq,
    marketSeq,
    sender: buyer,
    sequenceNumber: ctx.nextSeq(buyer),
  };
}

export const cancelListing = (ctx: SimContext) => closeListing(ctx, false);
export const fillListing = (ctx: SimContext) => closeListing(ctx, true);

function expiry(ctx: SimContext): number {
  return ctx.nowSecs + (OFFER_LIFETIMES_SECS[ctx.rng.int(OFFER_LIFETIMES_SECS.length)] as number);
}

export function placeTokenOffer(ctx: SimContext): Plan | null {
  if (ctx.state.tokenOffers.length >= MAX_OPEN_OFFERS) return null;
  const collection = ctx.pickActiveCollection();
  if (collection < 0) return null;
  const token = ctx.pickToken(collection, () => true);
  if (token < 0) return null;
  const buyer = ctx.pickOtherUser(ctx.state.tokOwner[token] as number);
  const offer: TokenOffer = {
    id: ctx.state.nextTokenOfferId++,
    token,
    buyer,
    price: ctx.roundPrice(
      ctx.priceLevel(collection) * tokenBoost(ctx, token) * (0.6 + 0.35 * ctx.rng.float()),
    ),
    expiresSecs: expiry(ctx),
  };
  ctx.state.tokenOffers.push(offer);
  const marketSeq = ctx.state.nextMarketSeq('token_offer_placed');
  return {
    kind: 'place_token_offer',
    offer: { ...offer },
    marketSeq,
    sender: buyer,
    sequenceNumber: ctx.nextSeq(buyer),
  };
}

/** Takes a random open offer out of `offers`; expired ones are dropped on the way (no event: they just lapse). */
function takeOffer<T extends { expiresSecs: number }>(
  ctx: SimContext,
  offers: T[],
  keep: (o: T) => boolean,
): T | null {
  if (offers.length === 0) return null;
  const i = ctx.rng.int(offers.length);
  const offer = offers[i] as T;
  const last = offers.pop() as T;
  if (i < offers.length) offers[i] = last;
  if (offer.expiresSecs <= ctx.nowSecs) return null;
  if (!keep(offer)) {
    offers.push(offer);
    return null;
  }
  return offer;
}

export function cancelTokenOffer(ctx: SimContext): Plan | null {
  const offer = takeOffer(ctx, ctx.state.tokenOffers, () => true);
  if (offer === null) return null;
  const marketSeq = ctx.state.nextMarketSeq('token_offer_canceled');
  return {
    kind: 'cancel_token_offer',
    offer,
    marketSeq,
    sender: offer.buyer,
    sequenceNumber: ctx.nextSeq(offer.buyer),
  };
}

export function fillTokenOffer(ctx: SimContext): Plan | null {
  const s = ctx.state;
  const offer = takeOffer(
    ctx,
    s.tokenOffers,
    (o) => isSellable(ctx, o.token) && s.tokOwner[o.token] !== o.buyer,
  );
  if (offer === null) return null;
  const seller = s.tokOwner[offer.token] as number;
  const { transferSeq, v1Seqs } = moveToken(ctx, offer.token, seller, offer.buyer);
  startHolding(ctx, offer.token);
  const marketSeq = s.nextMarketSeq('token_offer_filled');
  return {
    kind: 'fill_token_offer',
    offer,
    seller,
    transferSeq,
    v1Seqs,
    marketSeq,
    sender: seller,
    sequenceNumber: ctx.nextSeq(seller),
  };
}

export function placeCollectionOffer(ctx: SimContext): Plan | null {
  if (ctx.state.collectionOffers.length >= MAX_OPEN_OFFERS) return null;
  const collection = ctx.pickActiveCollection();
  if (collection < 0 || (ctx.state.collTokens[collection]?.length ?? 0) === 0) return null;
  const buyer = ctx.pickUser();
  const amount = ctx.rng.chance(0.6) ? 1 : ctx.rng.range(2, 5);
  const offer: CollectionOffer = {
    id: ctx.state.nextCollectionOfferId++,
    collection,
    buyer,
    price: ctx.roundPrice(ctx.priceLevel(collection) * (0.7 + 0.22 * ctx.rng.float())),
    amount,
    remaining: amount,
    expiresSecs: expiry(ctx),
  };
  ctx.state.collectionOffers.push(offer);
  const marketSeq = ctx.state.nextMarketSeq('collection_offer_placed');
  return {
    kind: 'place_collection_offer',
    offer: { ...offer },
    marketSeq,
    sender: buyer,
    sequenceNumber: ctx.nextSeq(buyer),
  };
}

export function cancelCollectionOffer(ctx: SimContext): Plan | null {
  const offer = takeOffer(ctx, ctx.state.collectionOffers, () => true);
  if (offer === null) return null;
  const marketSeq = ctx.state.nextMarketSeq('collection_offer_canceled');
  return {
    kind: 'cancel_collection_offer',
    offer,
    marketSeq,
    sender: offer.buyer,
    sequenceNumber: ctx.nextSeq(offer.buyer),
  };
}

export function fillCollectionOffer(ctx: SimContext): Plan | null {
  const s = ctx.state;
  let token = -1;
  const offer = takeOffer(ctx, s.collectionOffers, (o) => {
    token = ctx.pickToken(o.collection, (t) => isSellable(ctx, t) && s.tokOwner[t] !== o.buyer);
    return token >= 0;
  });
  if (offer === null) return null;
  const seller = s.tokOwner[token] as number;
  const { transferSeq, v1Seqs } = moveToken(ctx, token, seller, offer.buyer);
  startHolding(ctx, token);
  offer.remaining--;
  if (offer.remaining > 0) s.collectionOffers.push(offer);
  const marketSeq = s.nextMarketSeq('collection_offer_filled');
  return {
    kind: 'fill_collection_offer',
    offer: { ...offer },
    token,
    seller,
    transferSeq,
    v1Seqs,
    marketSeq,
    sender: seller,
    sequenceNumber: ctx.nextSeq(seller),
  };
}
