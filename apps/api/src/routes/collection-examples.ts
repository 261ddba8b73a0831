/*
 * Example answers of the collection analytics routes for the OpenAPI document (docs/API.md shows the same
 * ones, shortened). Taken from a tiny devnet chain ending 2026-01-01.
 */
const COLLECTION = '0x599a6c8c04f51fb2a3e0f3b7f1cc7e3b84d13c3bbf04e6b4ec84c5f1a5a2d91b';
const FRESHNESS = { indexedVersion: 599, indexedAt: '2026-01-01T00:00:00.000Z' };

export const STATS_EXAMPLE = {
  data: {
    collectionId: COLLECTION,
    collection: 'Shadow Dragons',
    creator: '0xce43d6a19a0d2bd0a1d02a7a0c1b0d1e6c9a3e4f5b6c7d8e9f00112233d0c8',
    window: '7d',
    windowStart: '2025-12-25T00:00:00.000Z',
    windowEnd: '2026-01-01T00:00:00.000Z',
    includeFlagged: false,
    volume: '3065800000',
    sales: 3,
    averageSale: '1021933333',
    medianSale: '970100000',
    uniqueBuyers: 3,
    uniqueSellers: 3,
    flaggedSales: 0,
    flaggedVolume: '0',
    floor: '1164500000',
    floorAtWindowStart: '948000000',
    floorChange: 0.2284,
    bestCollectionOffer: '905000000',
    listedCount: 13,
    listedShare: 0.1566,
    holders: 34,
    top10HoldersShare: 0.5542,
    supply: '83',
    minted: '84',
    burned: '1',
  },
  freshness: FRESHNESS,
};

const quiet = (start: string, floor: string | null) => ({
  start,
  open: '970100000',
  high: '970100000',
  low: '970100000',
  close: '970100000',
  volume: '0',
  sales: 0,
  floor,
});

export const HISTORY_EXAMPLE = {
  data: {
    collectionId: COLLECTION,
    interval: '1d',
    buckets: [
      { ...quiet('2025-12-30T00:00:00.000Z', null), volume: '970100000', sales: 1 },
      quiet('2025-12-31T00:00:00.000Z', null),
      quiet('2026-01-01T00:00:00.000Z', '1164500000'),
    ],
  },
  freshness: FRESHNESS,
};

export const TRAIT_FLOORS_EXAMPLE = {
  data: {
    collectionId: COLLECTION,
    traits: [
      {
        traitType: 'Clothes',
        value: 'Armor',
        count: 10,
        share: 0.1205,
        floor: '1535000000',
        lastSalePrice: '875200000',
        lastSaleAt: '2025-11-29T07:12:00.000Z',
      },
      {
        traitType: 'Clothes',
        value: 'Jersey',
        count: 2,
        share: 0.0241,
        floor: null,
        lastSalePrice: null,
        lastSaleAt: null,
      },
    ],
  },
  freshness: FRESHNESS,
};

export const TOP_TRADERS_EXAMPLE = {
  data: {
    collectionId: COLLECTION,
    window: '30d',
    buyers: [
      {
        address: '0xbc6701f3b2c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4cacd8',
        volume: '3099500000',
        trades: 3,
      },
    ],
    sellers: [
      {
        address: '0xb99601f3b2c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c71b1',
        volume: '5154600000',
        trades: 4,
      },
    ],
  },
  freshness: FRESHNESS,
};
