import type { ChainConfig } from '../config';
import { type CollectionMetadataPlan, metadataPlan } from '../metadata/plan';
import { Timeline } from '../timeline';
import { hex32, moveAddress } from '../util/hex';
import { Rng } from '../util/prng';
import { ADJECTIVES, LOOTBOX_NOUNS, NOUNS, TIER_NAMES } from './names';
import { buildTraitSchema, type TraitSchema } from './traits';

type SupplyKind = 'fixed' | 'unlimited' | 'concurrent';

export interface CollectionSpec {
  index: number;
  name: string;
  description: string;
  uri: string;
  creator: number;
  standard: 'v1' | 'v2';
  /** v2 only: `legacy` emits handle events (MintEvent, BurnEvent, TransferEvent); `modern` module events. */
  era: 'legacy' | 'modern';
  supplyKind: SupplyKind;
  /** 0 = unlimited. */
  maxSupply: number;
  createVersion: number;
  /** v2 collection object address, 64 hex without 0x ('' for v1). */
  addressHex: string;
  basePrice: number;
  priceAmplitude: number;
  pricePeriodUs: number;
  pricePhase: number;
  priceDrift: number;
  popularity: number;
  hypeCenterUs: number;
  hypeWidthUs: number;
  royaltyPercent: number;
  traits: TraitSchema;
  /** Which traits sit on chain and which in the off-chain document, and the misbehaving URIs. */
  metadata: CollectionMetadataPlan;
  /** Index into `lootboxes`, -1 for ordinary collections. */
  lootbox: number;
}

interface TierSpec {
  name: string;
  weight: number;
  maxSupply: number;
}

interface LootboxSpec {
  index: number;
  lootboxId: number;
  collection: number;
  creator: number;
  price: number;
  maxSupply: number;
  mintStartSecs: number;
  mintEndSecs: number;
  createVersion: number;
  tiers: TierSpec[];
  /** Price boost of each tier on the secondary market. */
  tierBoost: number[];
}

type ScheduledEvent = { kind: 'collection' | 'lootbox'; index: number };

/** Everything about the simulated market that is fixed by the config (no simulation needed). */
export interface World {
  config: ChainConfig;
  timeline: Timeline;
  /** 64-hex account addresses. */
  accountHex: string[];
  /** Move-value form (leading zeros stripped). */
  accountMove: string[];
  collections: CollectionSpec[];
  lootboxes: LootboxSpec[];
  schedule: Map<number, ScheduledEvent>;
  /** Ordinary collections are 0 .. regularCollections-1; lootbox collections follow. */
  regularCollections: number;
}

const DAY_US = 86_400_000_000;

function reserveVersion(
  schedule: Map<number, ScheduledEvent>,
  wanted: number,
  max: number,
  ev: ScheduledEvent,
) {
  let v = Math.max(0, Math.min(max, wanted));
  while (schedule.has(v)) v = v + 1 > max ? 0 : v + 1;
  schedule.set(v, ev);
  return v;
}

export function buildWorld(config: ChainConfig): World {
  const rng = Rng.fromSeed(config.seed, 0x776f726c64);
  const timeline = new Timeline(config);
  const n = config.transactionsCount;
  const accountHex = Array.from({ length: config.accounts }, (_, i) => hex32(config.seed, i, 0x61636374));
  const creators = Math.max(3, Math.ceil(config.collections / 2));
  const creatorOf = (i: number) => config.accounts - 1 - (i % creators);
  const schedule = new Map<number, ScheduledEvent>();
  const collections: CollectionSpec[] = [];
  const usedNames = new Set<string>();
  const uniqueName = (base: string) => {
    let name = base;
    for (let k = 2; usedNames.has(name); k++) name = `${base} ${k}`;
    usedNames.add(name);
    return name;
  };
  const expectedMints = n * 0.24;

  const baseCollection = (index: number, name: string, createVersion: number): CollectionSpec => {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const createUs = timeline.stepTimestampUs(createVersion);
    const spec: Omit<CollectionSpec, 'metadata'> = {
      index,
      name,
      description: `${name}: a simulated collection on the mdq devnet.`,
      // Served by the devnet's own HTTP server (src/metadata): the document and image of every URI.
      uri: `${config.metadataOrigin}/metadata/collections/${slug}`,
      creator: creatorOf(index),
      standard: 'v2',
      era: 'legacy',
      supplyKind: 'fixed',
      maxSupply: 0,
      createVersion,
      addressHex: hex32(config.seed, index, 0x636f6c6c),
      basePrice: Math.round((2e8 * Math.exp(rng.normal() * 1.1)) / 1e5) * 1e5 + 1e6,
      priceAmplitude: 0.15 + rng.float() * 0.45,
      pricePeriodUs: (3 + rng.float() * 25) * DAY_US,
      pricePhase: rng.float() * 2 * Math.PI,
      priceDrift: rng.normal() * 0.6,
      popularity: Math.exp(rng.normal() * 0.9),
      hypeCenterUs: createUs + rng.float() * Math.max(1, config.endTimeUs - createUs),
      hypeWidthUs: (0.5 + rng.float() * 6) * DAY_US,
      royaltyPercent: rng.range(0, 8),
      traits: buildTraitSchema(rng),
      lootbox: -1,
    };
    return { ...spec, metadata: metadataPlan(index, false, spec.traits) };
  };

  const regular = config.collections;
  for (let i = 0; i < regular; i++) {
    // Most collections exist from the start (so 30-day windows have history); the rest arrive later.
    const early = i < Math.ceil(regular * 0.6);
    const wanted = early
      ? Math.floor(i * Math.max(1, n * 0.004))
      : Math.floor(n * (0.05 + rng.float() * 0.87));
    const version = reserveVersion(schedule, wanted, n - 1, { kind: 'collection', index: i });
    const adjective = ADJECTIVES[rng.int(ADJECTIVES.length)] as string;
    const noun = NOUNS[rng.int(NOUNS.length)] as string;
    const spec = baseCollection(i, uniqueName(`${adjective} ${noun}`), version);
    spec.standard = i % 5 === 3 ? 'v1' : 'v2';
    spec.era = spec.standard === 'v2' && i % 3 === 1 ? 'modern' : 'legacy';
    const share = spec.popularity / regular;
    const roll = rng.float();
    if (spec.era === 'modern') spec.supplyKind = 'concurrent';
    else if (roll < 0.3) spec.supplyKind = 'unlimited';
    else spec.supplyKind = 'fixed';
    const capacity = Math.max(20, Math.round(expectedMints * share * (1.2 + rng.float())));
    spec.maxSupply = spec.supplyKind === 'unlimited' ? 0 : capacity;
    if (spec.standard === 'v1') spec.maxSupply = rng.chance(0.3) ? 0 : capacity;
    collections.push(spec);
  }

  const lootboxes: LootboxSpec[] = [];
  const purchasesPerBox = Math.max(8, Math.round((n * 0.05) / config.lootboxes));
  for (let l = 0; l < config.lootboxes; l++) {
    const kind = l % 4; // 0 active, 1 sells out, 2 ended, 3 upcoming
    const wanted =
      kind === 3 ? Math.floor(n * (0.97 + rng.float() * 0.025)) : Math.floor(n * (0.02 + rng.float() * 0.8));
    const index = regular + l;
    const version = reserveVersion(schedule, wanted, n - 1, { kind: 'lootbox', index: l });
    const createSecs = Math.floor(timeline.stepTimestampUs(version) / 1e6);
    const endSecs = Math.floor(config.endTimeUs / 1e6);
    const noun = LOOTBOX_NOUNS[rng.int(LOOTBOX_NOUNS.length)] as string;
    const spec = baseCollection(
      index,
      uniqueName(`${ADJECTIVES[rng.int(ADJECTIVES.length)]} ${noun}`),
      version,
    );
    spec.era = 'modern';
    spec.supplyKind = 'concurrent';
    spec.lootbox = l;
    spec.metadata = metadataPlan(index, true, spec.traits);
    const tierCount = rng.range(3, 5);
    const maxSupply = kind === 1 ? Math.max(5, Math.round(purchasesPerBox * 0.4)) : purchasesPerBox * 4;
    spec.maxSupply = maxSupply;
    const weights = [60, 25, 10, 4, 1].slice(0, tierCount);
    const totalWeight = weights.reduce((a, b) => a + b, 0);
    const tiers = weights.map((w, t) => ({
      name: TIER_NAMES[t] as string,
      weight: w,
      // Tier caps sum above max_supply so a draw always finds a tier with room.
      maxSupply: Math.max(1, Math.ceil((maxSupply * w * 1.5) / totalWeight)),
    }));
    let mintStart = createSecs + rng.range(0, 3600);
    let mintEnd = 0;
    if (kind === 2) mintEnd = Math.min(endSecs - 3600, mintStart + Math.floor((endSecs - mintStart) * 0.4));
    if (kind === 3) mintStart = endSecs + rng.range(1, 10) * 86_400;
    if (kind === 0 && rng.chance(0.5)) mintEnd = endSecs + rng.range(2, 20) * 86_400;
    if (mintEnd !== 0 && mintEnd <= mintStart) mintEnd = mintStart + 3600;
    collections.push(spec);
    lootboxes.push({
      index: l,
      lootboxId: l + 1,
      collection: index,
      creator: spec.creator,
      price: Math.round((0.2 + rng.float() * 4) * 1e3) * 1e5,
      maxSupply,
      mintStartSecs: mintStart,
      mintEndSecs: mintEnd,
      createVersion: version,
      tiers,
      tierBoost: [1, 1.8, 3.5, 7, 15].slice(0, tierCount),
    });
  }

  return {
    config,
    timeline,
    accountHex,
    accountMove: accountHex.map(moveAddress),
    collections,
    lootboxes,
    schedule,
    regularCollections: regular,
  };
}
