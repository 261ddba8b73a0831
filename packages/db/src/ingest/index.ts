export { type FailedDecode, toBatch, usToIso } from './map/index';
export { recountOwners } from './owner-counts';
export { refreshPlannerStats } from './planner-stats';
export * from './types';
export { refreshWashFlags, WASH_RULES, type WashReason } from './wash-flags';
export { CheckpointMovedError, writeBatch } from './write-batch';
