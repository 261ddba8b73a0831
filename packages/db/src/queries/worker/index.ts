export * from './floors-at';
export * from './inventory';
export * from './market-filters';
export * from './rankings';
export * from './rarity';
export * from './signals';
export * from './snapshots';
export * from './uri-cache';
