export * from './types';
export { refreshWashFlags, WASH_RULES, type WashReason } from './wash-flags';
export { CheckpointMovedError, writeBatch } from './write-batch';
