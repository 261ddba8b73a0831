import type { Plan } from '../sim/plan';
import { MARKET_STREAMS, type MarketStream, type SimState } from '../sim/state';
import type { TxBuilder } from './builder';
import { APT, type Entities } from './entities';
import type { MoveJson } from './rest-types';
import { emitDeposit, emitWithdraw, tokenIdJson, writeTokenRow, writeTokenStore } from './token-v1';
import { emitTransfer, OBJ_GUID, objectCore, writeTokenGroup } from './token-v2';
import type { Call } from './tokens';

type PlanOf<K extends Plan['kind']> = Extract<Plan, { kind: K }>;

const EVENT_NAMES: Record<MarketStream, string> = {
  listing_placed: 'ListingPlacedEvent',
  listing_canceled: 'ListingCanceledEvent',
  listing_filled: 'ListingFilledEvent',
  collection_offer_placed: 'CollectionOfferPlacedEvent',
  collection_offer_canceled: 'CollectionOfferCanceledEvent',
  collection_offer_filled: 'CollectionOfferFilledEvent',
  token_offer_placed: 'TokenOfferPlacedEvent',
  token_offer_canceled: 'TokenOfferCanceledEvent',
  token_offer_filled: 'TokenOfferFilledEvent',
};

/** Wapal keeps 1.5% commission (numerator 15 / denominator 1000 on its fee schedule). */
const commission = (price: number) => Math.floor((price * 15) / 1000);

/**
 * Wapal-style marketplace events: handle events on the fee-schedule object, creation numbers
 * 1125899906842627.. in the order of MARKET_STREAMS.
 */
function emitMarket(b: TxBuilder, e: Entities, stream: MarketStream, seq: number, data: MoveJson): void {
  const i = MARKET_STREAMS.indexOf(stream);
  b.handleEvent(
    e.feeSchedule,
    String(OBJ_GUID + 3 + i),
    seq,
    `${e.mkt}::events::${EVENT_NAMES[stream]}`,
    data,
  );
  // Wapal also rewrites its EventsV1 counters resource here; it carries nothing an indexer needs and
  // was a fifth of the bytes of every market transaction, so the devnet leaves it out.
}

function tokenMetadata(e: Entities, s: SimState, token: number): MoveJson {
  const c = s.tokColl[token] ?? 0;
  const spec = e.collection(c);
  const v2 = spec.standard === 'v2';
  return {
    collection: { vec: v2 ? [{ inner: e.collectionAddress(c) }] : [] },
    collection_name: spec.name,
    creator_address: e.account(spec.creator),
    property_version: { vec: v2 ? [] : ['0'] },
    token: { vec: v2 ? [{ inner: e.tokenAddress(token) }] : [] },
    token_name: e.tokenName(c, s.tokSerial[token] ?? 0),
  };
}

function collectionMetadata(e: Entities, c: number): MoveJson {
  const spec = e.collection(c);
  return {
    collection: { vec: spec.standard === 'v2' ? [{ inner: e.collectionAddress(c) }] : [] },
    collection_name: spec.name,
    creator_address: e.account(spec.creator),
  };
}

const royalties = (e: Entities, s: SimState, token: number, price: number) =>
  Math.floor((price * e.collection(s.tokColl[token] ?? 0).royaltyPercent) / 100);

/** Moves a token between wallets inside a marketplace call (v2 transfer event or v1 withdraw/deposit). */
function handOver(
  b: TxBuilder,
  e: Entities,
  s: SimState,
  token: number,
  from: number,
  to: number,
  transferSeq: number,
  v1Seqs: [number, number],
): void {
  const spec = e.collection(s.tokColl[token] ?? 0);
  if (spec.standard === 'v1') {
    emitWithdraw(b, e, s, token, from, v1Seqs[0]);
    emitDeposit(b, e, s, token, to, v1Seqs[1]);
    writeTokenStore(b, e, s, from);
    writeTokenStore(b, e, s, to);
    writeTokenRow(b, e, s, token, from, false);
    writeTokenRow(b, e, s, token, to, true);
    return;
  }
  emitTransfer(b, e, token, transferSeq, e.account(from), e.account(to), spec.era === 'modern');
  writeTokenGroup(b, e, s, token, e.account(to), false);
}

export function renderList(b: TxBuilder, e: Entities, s: SimState, p: PlanOf<'list'>): Call {
  const spec = e.collection(s.tokColl[p.token] ?? 0);
  const listing = e.listingAddress(p.listingId);
  const seller = e.account(p.seller);
  const v2 = spec.standard === 'v2';
  if (v2) {
    emitTransfer(b, e, p.token, p.transferSeq, seller, listing, spec.era === 'modern');
    writeTokenGroup(b, e, s, p.token, listing, false);
  } else {
    emitWithdraw(b, e, s, p.token, p.seller, p.v1Seq);
    writeTokenStore(b, e, s, p.seller);
    writeTokenRow(b, e, s, p.token, p.seller, false);
    const container = e.containerAddress(p.listingId);
    b.writeResource(container, '0x1::object::ObjectCore', objectCore(listing, container, false, 1, 0));
    b.writeResource(container, `${e.mkt}::listing::TokenV1Container`, {
      token: {
        amount: '1',
        id: tokenIdJson(e, s.tokColl[p.token] ?? 0, s.tokSerial[p.token] ?? 0),
        token_properties: { map: { data: [] } },
      },
    });
  }
  emitMarket(b, e, 'listing_placed', p.marketSeq, {
    listing,
    price: String(p.price),
    seller,
    token_metadata: tokenMetadata(e, s, p.token),
    type: 'fixed price',
  });
  b.writeResource(listing, '0x1::object::ObjectCore', objectCore(seller, listing, false, 1, 0));
  b.writeResource(listing, `${e.mkt}::coin_listing::FixedPriceListing<${APT}>`, { price: String(p.price) });
  b.writeResource(listing, `${e.mkt}::listing::Listing`, {
    delete_ref: { self: listing },
    extend_ref: { self: listing },
    fee_schedule: { inner: e.feeSchedule },
    object: { inner: v2 ? e.tokenAddress(p.token) : e.containerAddress(p.listingId) },
    seller,
  });
  const c = s.tokColl[p.token] ?? 0;
  const start = '0';
  return v2
    ? {
        function: `${e.mkt}::coin_listing::init_fixed_price_for_tokenv2`,
        typeArguments: [APT],
        arguments: [{ inner: e.tokenAddress(p.token) }, { inner: e.feeSchedule }, start, String(p.price)],
      }
    : {
        function: `${e.mkt}::coin_listing::init_fixed_price_for_tokenv1`,
        typeArguments: [APT],
        arguments: [
          e.account(spec.creator),
          spec.name,
          e.tokenName(c, s.tokSerial[p.token] ?? 0),
          '0',
          { inner: e.feeSchedule },
          start,
          String(p.price),
        ],
      };
}

export function renderRelist(b: TxBuilder, e: Entities, s: SimState, p: PlanOf<'relist'>): Call {
  const listing = e.listingAddress(p.listingId);
  emitMarket(b, e, 'listing_placed', p.marketSeq, {
    listing,
    price: String(p.price),
    seller: e.account(p.seller),
    token_metadata: tokenMetadata(e, s, p.token),
    type: 'fixed price',
  });
  b.writeResource(listing, `${e.mkt}::coin_listing::FixedPriceListing<${APT}>`, { price: String(p.price) });
  return {
    function: `${e.mkt}::marketplace_scripts::update_fixed_price_many`,
    typeArguments: [APT],
    arguments: [[listing], [String(p.price)]],
  };
}

export function renderCloseListing(
  b: TxBuilder,
  e: Entities,
  s: SimState,
  p: PlanOf<'cancel_listing' | 'fill_listing'>,
): Call {
  const spec = e.collection(s.tokColl[p.token] ?? 0);
  const listing = e.listingAddress(p.listingId);
  const to = p.kind === 'fill_listing' ? p.buyer : p.seller;
  if (spec.standard === 'v2') {
    emitTransfer(b, e, p.token, p.transferSeq, listing, e.account(to), spec.era === 'modern');
    writeTokenGroup(b, e, s, p.token, e.account(to), false);
  } else {
    emitDeposit(b, e, s, p.token, to, p.v1Seq);
    writeTokenStore(b, e, s, to);
    writeTokenRow(b, e, s, p.token, to, true);
    b.deleteResource(e.containerAddress(p.listingId), '0x1::object::ObjectGroup');
  }
  const base = {
    listing,
    price: String(p.price),
    seller: e.account(p.seller),
    token_metadata: tokenMetadata(e, s, p.token),
    type: 'fixed price',
  };
  if (p.kind === 'fill_listing') {
    if (p.funding !== undefined && p.funding > 0) {
      // A funded wash trade: the seller hands the buyer the price, and the buyer pays it back.
      emitCoinMove(b, e.account(p.seller), e.account(p.buyer), p.funding);
      emitCoinMove(b, e.account(p.buyer), e.account(p.seller), p.price);
    }
    emitMarket(b, e, 'listing_filled', p.marketSeq, {
      commission: String(commission(p.price)),
      listing,
      price: base.price,
      purchaser: e.account(p.buyer),
      royalties: String(royalties(e, s, p.token, p.price)),
      seller: base.seller,
      token_metadata: base.token_metadata,
      type: base.type,
    });
  } else {
    emitMarket(b, e, 'listing_canceled', p.marketSeq, base);
  }
  b.deleteResource(listing, '0x1::object::ObjectGroup');
  return {
    function:
      p.kind === 'fill_listing'
        ? `${e.mkt}::coin_listing::purchase`
        : `${e.mkt}::coin_listing::end_fixed_price`,
    typeArguments: [APT],
    arguments: [{ inner: listing }],
  };
}

/** An APT payment as the coin module reports it (module events, account named in the event). */
function emitCoinMove(b: TxBuilder, from: string, to: string, amount: number): void {
  b.moduleEvent('0x1::coin::CoinWithdraw', { account: from, amount: String(amount), coin_type: APT });
  b.moduleEvent('0x1::coin::CoinDeposit', { account: to, amount: String(amount), coin_type: APT });
}

function writeOffer(
  b: TxBuilder,
  e: Entities,
  addr: string,
  owner: string,
  module: string,
  core: MoveJson,
  coins: number,
  target: [string, MoveJson],
): void {
  b.writeResource(addr, '0x1::object::ObjectCore', objectCore(owner, addr, false, 1, 0));
  b.writeResource(addr, `${e.mkt}::${module}::CoinOffer<${APT}>`, { coins: { value: String(coins) } });
  b.writeResource(
    addr,
    `${e.mkt}::${module}::${module === 'token_offer' ? 'TokenOffer' : 'CollectionOffer'}`,
    core,
  );
  b.writeResource(addr, `${e.mkt}::${module}::${target[0]}`, target[1]);
}

export function renderTokenOffer(
  b: TxBuilder,
  e: Entities,
  s: SimState,
  p: PlanOf<'place_token_offer' | 'cancel_token_offer' | 'fill_token_offer'>,
): Call {
  const o = p.offer;
  const addr = e.tokenOfferAddress(o.id);
  const c = s.tokColl[o.token] ?? 0;
  const spec = e.collection(c);
  const v2 = spec.standard === 'v2';
  const data = {
    price: String(o.price),
    purchaser: e.account(o.buyer),
    token_metadata: tokenMetadata(e, s, o.token),
    token_offer: addr,
  };
  if (p.kind === 'place_token_offer') {
    emitMarket(b, e, 'token_offer_placed', p.marketSeq, data);
    const name = e.tokenName(c, s.tokSerial[o.token] ?? 0);
    writeOffer(
      b,
      e,
      addr,
      e.account(o.buyer),
      'token_offer',
      {
        delete_ref: { self: addr },
        expiration_time: String(o.expiresSecs),
        fee_schedule: { inner: e.feeSchedule },
        item_price: String(o.price),
      },
      o.price,
      v2
        ? ['TokenOfferTokenV2', { token: { inner: e.tokenAddress(o.token) } }]
        : [
            'TokenOfferTokenV1',
            {
              collection_name: spec.name,
              creator_address: e.account(spec.creator),
              property_version: '0',
              token_name: name,
            },
          ],
    );
    const args: MoveJson[] = v2
      ? [{ inner: e.tokenAddress(o.token) }, { inner: e.feeSchedule }, String(o.price), String(o.expiresSecs)]
      : [
          e.account(spec.creator),
          spec.name,
          name,
          '0',
          { inner: e.feeSchedule },
          String(o.price),
          String(o.expiresSecs),
        ];
    return {
      function: `${e.mkt}::token_offer::init_for_token${v2 ? 'v2' : 'v1'}_entry`,
      typeArguments: [APT],
      arguments: args,
    };
  }
  if (p.kind === 'cancel_token_offer') {
    emitMarket(b, e, 'token_offer_canceled', p.marketSeq, data);
    b.deleteResource(addr, '0x1::object::ObjectGroup');
    return { function: `${e.mkt}::token_offer::cancel`, typeArguments: [APT], arguments: [{ inner: addr }] };
  }
  handOver(b, e, s, o.token, p.seller, o.buyer, p.transferSeq, p.v1Seqs);
  emitMarket(b, e, 'token_offer_filled', p.marketSeq, {
    commission: String(commission(o.price)),
    price: data.price,
    purchaser: data.purchaser,
    royalties: String(royalties(e, s, o.token, o.price)),
    seller: e.account(p.seller),
    token_metadata: data.token_metadata,
    token_offer: addr,
  });
  b.deleteResource(addr, '0x1::object::ObjectGroup');
  const args: MoveJson[] = v2
    ? [{ inner: addr }]
    : [{ inner: addr }, e.tokenName(c, s.tokSerial[o.token] ?? 0), '0'];
  return {
    function: `${e.mkt}::token_offer::sell_token${v2 ? 'v2' : 'v1'}`,
    typeArguments: [APT],
    arguments: args,
  };
}

export function renderCollectionOffer(
  b: TxBuilder,
  e: Entities,
  s: SimState,
  p: PlanOf<'place_collection_offer' | 'cancel_collection_offer' | 'fill_collection_offer'>,
): Call {
  const o = p.offer;
  const addr = e.collectionOfferAddress(o.id);
  const spec = e.collection(o.collection);
  const v2 = spec.standard === 'v2';
  const core = (remaining: number): MoveJson => ({
    delete_ref: { self: addr },
    expiration_time: String(o.expiresSecs),
    fee_schedule: { inner: e.feeSchedule },
    item_price: String(o.price),
    remaining: String(remaining),
  });
  const target: [string, MoveJson] = v2
    ? ['CollectionOfferTokenV2', { collection: { inner: e.collectionAddress(o.collection) } }]
    : ['CollectionOfferTokenV1', { collection_name: spec.name, creator_address: e.account(spec.creator) }];
  if (p.kind === 'place_collection_offer') {
    emitMarket(b, e, 'collection_offer_placed', p.marketSeq, {
      collection_metadata: collectionMetadata(e, o.collection),
      collection_offer: addr,
      price: String(o.price),
      purchaser: e.account(o.buyer),
      token_amount: String(o.amount),
    });
    writeOffer(
      b,
      e,
      addr,
      e.account(o.buyer),
      'collection_offer',
      core(o.amount),
      o.price * o.amount,
      target,
    );
    const args: MoveJson[] = v2
      ? [
          { inner: e.collectionAddress(o.collection) },
          { inner: e.feeSchedule },
          String(o.price),
          String(o.amount),
          String(o.expiresSecs),
        ]
      : [
          e.account(spec.creator),
          spec.name,
          { inner: e.feeSchedule },
          String(o.price),
          String(o.amount),
          String(o.expiresSecs),
        ];
    return {
      function: `${e.mkt}::collection_offer::init_for_token${v2 ? 'v2' : 'v1'}_entry`,
      typeArguments: [APT],
      arguments: args,
    };
  }
  if (p.kind === 'cancel_collection_offer') {
    emitMarket(b, e, 'collection_offer_canceled', p.marketSeq, {
      collection_metadata: collectionMetadata(e, o.collection),
      collection_offer: addr,
      price: String(o.price),
      purchaser: e.account(o.buyer),
      remaining_token_amount: String(o.remaining),
    });
    b.deleteResource(addr, '0x1::object::ObjectGroup');
    return {
      function: `${e.mkt}::collection_offer::cancel`,
      typeArguments: [APT],
      arguments: [{ inner: addr }],
    };
  }
  handOver(b, e, s, p.token, p.seller, o.buyer, p.transferSeq, p.v1Seqs);
  emitMarket(b, e, 'collection_offer_filled', p.marketSeq, {
    collection_offer: addr,
    commission: String(commission(o.price)),
    price: String(o.price),
    purchaser: e.account(o.buyer),
    royalties: String(royalties(e, s, p.token, o.price)),
    seller: e.account(p.seller),
    token_metadata: tokenMetadata(e, s, p.token),
  });
  if (o.remaining > 0) {
    b.writeResource(addr, `${e.mkt}::collection_offer::CoinOffer<${APT}>`, {
      coins: { value: String(o.price * o.remaining) },
    });
    b.writeResource(addr, `${e.mkt}::collection_offer::CollectionOffer`, core(o.remaining));
  } else {
    b.deleteResource(addr, '0x1::object::ObjectGroup');
  }
  const c = s.tokColl[p.token] ?? 0;
  const args: MoveJson[] = v2
    ? [{ inner: addr }, { inner: e.tokenAddress(p.token) }]
    : [{ inner: addr }, e.tokenName(c, s.tokSerial[p.token] ?? 0), '0'];
  return {
    function: `${e.mkt}::collection_offer::sell_token${v2 ? 'v2' : 'v1'}`,
    typeArguments: [APT],
    arguments: args,
  };
}
