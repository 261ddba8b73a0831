export * from './types';
export { refreshWashFlags, WASH_RULES, type WashReason } from './wash-flags';
export { writeBatch } from './write-batch';
