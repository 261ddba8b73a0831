import { chainTraits, documentTraits, mergedTraits } from '../metadata/plan';
import type { SimState } from '../sim/state';
import { drawTraits } from '../world/traits';
import type { World } from '../world/world';
import { collectionId, tokenId } from './ids';
import { floors, type RecordedTallies } from './tally';
import {
  type CollectionFacts,
  type CollectionOfferFact,
  type DevnetFacts,
  type ListingFact,
  type LootboxFacts,
  type OfferCounts,
  type OpenOfferFact,
  type PerWindow,
  type SaleFact,
  type TokenFacts,
  type UserFacts,
  WINDOW_US,
  WINDOWS,
} from './types';

const perWindow = <T>(values: readonly T[]): PerWindow<T> =>
  Object.fromEntries(WINDOWS.map((w, i) => [w, values[i] as T])) as PerWindow<T>;

const price = (p: number | null | undefined) => (p === null || p === undefined ? null : String(p));

function offerCounts(
  tally: { placed: number; cancelled: number; filled: number },
  open: { expiresSecs: number }[],
  nowSecs: number,
): OfferCounts {
  // A collection offer can be filled several times, so "placed - cancelled - filled" is no count of
  // offers; the open ones (neither fully filled nor cancelled) split by their expiration instead.
  const active = open.filter((o) => o.expiresSecs > nowSecs).length;
  return { ...tally, active, expired: open.length - active };
}

/** A token's traits: on its property map, in its document (null when that fails), and merged. */
function traitsOf(
  world: World,
  s: SimState,
  t: number,
): Pick<TokenFacts, 'traits' | 'documentTraits' | 'expectedTraits' | 'metadataFault'> {
  const c = s.tokColl[t] ?? 0;
  const spec = world.collections[c];
  if (spec === undefined)
    return { traits: {}, documentTraits: null, expectedTraits: {}, metadataFault: null };
  if (spec.lootbox >= 0) {
    const tier = { tier: world.lootboxes[spec.lootbox]?.tiers[s.tokTier[t] ?? 0]?.name ?? 'Common' };
    return { traits: tier, documentTraits: {}, expectedTraits: tier, metadataFault: null };
  }
  const serial = s.tokSerial[t] ?? 0;
  const drawn = drawTraits(world.config.seed, c, serial, spec.traits).values;
  const chain = chainTraits(spec.metadata, spec.traits, drawn);
  const fault = spec.metadata.faults.get(serial) ?? null;
  const document = fault === null ? documentTraits(spec.metadata, spec.traits, drawn, 0) : null;
  return {
    traits: chain,
    documentTraits: document,
    expectedTraits: mergedTraits(chain, document),
    metadataFault: fault,
  };
}

/** Assembles the facts from the final state plus what the recorder saw on the way. */
export function buildFacts(world: World, s: SimState, rec: RecordedTallies): DevnetFacts {
  const { config, timeline } = world;
  const nowSecs = Math.floor(config.endTimeUs / 1e6);
  const floorNow = floors(s);
  const ids = world.collections.map((_, c) => collectionId(world, c));
  const addr = (a: number) => `0x${world.accountHex[a]}`;
  const holders = world.collections.map(() => new Set<number>());
  const perUser = new Map<number, number[]>();
  let burned = 0;
  const burnedPer = new Array<number>(world.collections.length).fill(0);
  for (let t = 0; t < s.tokenCount; t++) {
    const owner = s.tokOwner[t] ?? -1;
    const c = s.tokColl[t] ?? 0;
    if (owner < 0) {
      burned++;
      burnedPer[c] = (burnedPer[c] ?? 0) + 1;
      continue;
    }
    holders[c]?.add(owner);
    const list = perUser.get(owner);
    if (list === undefined) perUser.set(owner, [t]);
    else list.push(t);
  }
  const tokenOffersBy = world.collections.map(() => [] as { expiresSecs: number }[]);
  for (const o of s.tokenOffers) tokenOffersBy[s.tokColl[o.token] ?? 0]?.push(o);
  const collectionOffersBy = world.collections.map(() => [] as { expiresSecs: number }[]);
  for (const o of s.collectionOffers) collectionOffersBy[o.collection]?.push(o);

  const collections: CollectionFacts[] = world.collections.map((spec, c) => {
    const tally = rec.collections[c];
    return {
      collectionId: ids[c] as string,
      traitSource: spec.metadata.source,
      conflictTrait: spec.metadata.conflict >= 0 ? (spec.traits.keys[spec.metadata.conflict] ?? null) : null,
      name: spec.name,
      standard: spec.standard,
      creator: addr(spec.creator),
      lootboxId: spec.lootbox >= 0 ? (world.lootboxes[spec.lootbox]?.lootboxId ?? null) : null,
      createdVersion: timeline.versionOfStep(spec.createVersion),
      supply: s.collSupply[c] ?? 0,
      minted: s.collMinted[c] ?? 0,
      burned: burnedPer[c] ?? 0,
      holders: holders[c]?.size ?? 0,
      activeListings: s.collListings[c]?.length ?? 0,
      floor: {
        now: price(floorNow[c]),
        '24h': price(rec.floorsAt['24h']?.[c]),
        '7d': price(rec.floorsAt['7d']?.[c]),
        '30d': price(rec.floorsAt['30d']?.[c]),
      },
      sales: perWindow(tally?.sales ?? [0, 0, 0, 0]),
      volume: perWindow((tally?.volume ?? [0, 0, 0, 0]).map(String)),
      uniqueBuyers: perWindow((tally?.buyers ?? []).map((b) => b.size)),
      tokenOffers: offerCounts(
        tally?.tokenOffers ?? { placed: 0, cancelled: 0, filled: 0 },
        tokenOffersBy[c] ?? [],
        nowSecs,
      ),
      collectionOffers: offerCounts(
        tally?.collectionOffers ?? { placed: 0, cancelled: 0, filled: 0 },
        collectionOffersBy[c] ?? [],
        nowSecs,
      ),
    };
  });

  const lootboxes: LootboxFacts[] = world.lootboxes.map((spec, l) => {
    const st = s.lootboxes[l];
    const tally = rec.lootboxes[l];
    let status: LootboxFacts['status'] = 'active';
    if (nowSecs < (st?.mintStartSecs ?? 0)) status = 'upcoming';
    else if ((st?.purchased ?? 0) >= spec.maxSupply) status = 'sold_out';
    else if ((st?.mintEndSecs ?? 0) !== 0 && nowSecs >= (st?.mintEndSecs ?? 0)) status = 'ended';
    return {
      lootboxId: spec.lootboxId,
      collectionId: ids[spec.collection] as string,
      name: world.collections[spec.collection]?.name ?? '',
      status,
      paused: st?.paused ?? false,
      price: String(st?.price ?? spec.price),
      maxSupply: spec.maxSupply,
      mintStartSecs: st?.mintStartSecs ?? spec.mintStartSecs,
      mintEndSecs: st?.mintEndSecs ?? spec.mintEndSecs,
      createdVersion: timeline.versionOfStep(spec.createVersion),
      purchases: tally?.purchases ?? 0,
      purchased: st?.purchased ?? 0,
      minted: st?.minted ?? 0,
      revenue: perWindow((tally?.revenue ?? [0, 0, 0, 0]).map(String)),
      tiers: spec.tiers.map((t, i) => ({ ...t, minted: st?.tierMinted[i] ?? 0 })),
    };
  });

  // A sample of users: the ten most active wallets (low indexes) and ten spread over the rest.
  const sample = new Set<number>();
  for (let a = 0; a < Math.min(10, config.accounts); a++) sample.add(a);
  for (let k = 1; k <= 10; k++) sample.add(Math.floor((k * (config.accounts - 1)) / 10));
  const users: UserFacts[] = [...sample].map((a) => {
    const held = perUser.get(a) ?? [];
    const perCollection: Record<string, number> = {};
    for (const t of held) {
      const id = ids[s.tokColl[t] ?? 0] as string;
      perCollection[id] = (perCollection[id] ?? 0) + 1;
    }
    return {
      address: addr(a),
      tokensHeld: held.length,
      tokens: held.map((t) => tokenId(world, s, t)),
      perCollection,
    };
  });

  // Token lists: every collection for small chains, otherwise two regular ones and one lootbox.
  const sampled =
    s.tokenCount <= 20_000
      ? world.collections.map((_, c) => c)
      : [0, 1, world.lootboxes[0]?.collection ?? 2].filter((c) => c < world.collections.length);
  const tokens: Record<string, TokenFacts[]> = {};
  for (const c of sampled) tokens[ids[c] as string] = [];
  for (let t = 0; t < s.tokenCount; t++) {
    const c = s.tokColl[t] ?? 0;
    const list = tokens[ids[c] as string];
    const owner = s.tokOwner[t] ?? -1;
    if (list === undefined || owner < 0) continue;
    const spec = world.collections[c];
    list.push({
      tokenId: tokenId(world, s, t),
      name: `${spec?.name} #${s.tokSerial[t]}`,
      serial: s.tokSerial[t] ?? 0,
      owner: addr(owner),
      listed: (s.tokListing[t] ?? 0) !== 0,
      listPrice: (s.tokListing[t] ?? 0) !== 0 ? String(s.tokPrice[t]) : null,
      ...traitsOf(world, s, t),
      mintedVersion: rec.mintedAt.get(t) ?? -1,
      listedVersion: (s.tokListing[t] ?? 0) !== 0 ? (rec.listedAt.get(t) ?? -1) : null,
    });
  }

  const small = s.tokenCount <= 20_000;
  const moment = (m: { version: number; timestampUs: number }) => ({
    version: m.version,
    timestampUs: String(m.timestampUs),
  });
  const listings: ListingFact[] = small
    ? [...rec.listingLog.values()].map((l) => ({
        collectionId: ids[s.tokColl[l.token] ?? 0] as string,
        tokenId: tokenId(world, s, l.token),
        seller: addr(l.seller),
        prices: l.prices.map((p) => ({ ...moment(p), price: String(p.price) })),
        end: l.end === null ? null : { ...moment(l.end), kind: l.end.kind },
      }))
    : [];
  const collectionOffers: CollectionOfferFact[] = small
    ? [...rec.collectionOfferLog.values()].map((o) => ({
        collectionId: ids[o.collection] as string,
        buyer: addr(o.buyer),
        price: String(o.price),
        amount: o.amount,
        placed: moment(o.placed),
        expiresUs: String(o.expiresSecs * 1_000_000),
        filled: o.filled,
        end: o.end === null ? null : { ...moment(o.end), kind: o.end.kind },
      }))
    : [];
  const saleFacts: SaleFact[] = small
    ? rec.saleLog.map((r) => ({
        version: r.version,
        timestampUs: String(r.timestampUs),
        collectionId: ids[r.collection] as string,
        tokenId: tokenId(world, s, r.token),
        seller: addr(r.seller),
        buyer: addr(r.buyer),
        price: String(r.price),
        wash: r.wash,
      }))
    : [];
  const openOffers: OpenOfferFact[] = small
    ? [
        ...s.tokenOffers.map((o) => ({
          kind: 'token' as const,
          buyer: addr(o.buyer),
          collectionId: ids[s.tokColl[o.token] ?? 0] as string,
          tokenId: tokenId(world, s, o.token),
          price: String(o.price),
          placedVersion: rec.tokenOfferPlacedAt.get(o.id) ?? -1,
          expiresSecs: o.expiresSecs,
        })),
        ...s.collectionOffers.map((o) => ({
          kind: 'collection' as const,
          buyer: addr(o.buyer),
          collectionId: ids[o.collection] as string,
          tokenId: null,
          price: String(o.price),
          placedVersion: rec.collectionOfferPlacedAt.get(o.id) ?? -1,
          expiresSecs: o.expiresSecs,
        })),
      ]
    : [];
  let sales = 0;
  let volume = 0;
  for (const t of rec.collections) {
    sales += t.sales[3] ?? 0;
    volume += t.volume[3] ?? 0;
  }
  const end = config.endTimeUs;
  return {
    format: 'mdq-devnet-facts/1',
    chain: {
      seed: config.seed,
      chainId: config.chainId,
      transactionsCount: timeline.initialVersions,
      userTransactions: config.transactionsCount,
      blocks: timeline.initialBlocks,
      firstVersion: 0,
      lastVersion: timeline.initialVersions - 1,
      startTimestampUs: String(timeline.startUs),
      nowUs: String(end),
      windowStartUs: {
        '24h': String(end - WINDOW_US['24h']),
        '7d': String(end - WINDOW_US['7d']),
        '30d': String(end - WINDOW_US['30d']),
      },
      marketplaceAddress: config.marketplaceAddress,
      lootboxAddress: config.lootboxAddress,
    },
    totals: {
      tokensMinted: s.tokenCount,
      tokensBurned: burned,
      sales,
      volume: String(volume),
      lootboxRevenue: String(rec.lootboxes.reduce((a, t) => a + (t.revenue[3] ?? 0), 0)),
    },
    collections,
    lootboxes,
    users,
    tokens,
    sales: saleFacts,
    openOffers,
    listings,
    collectionOffers,
  };
}
