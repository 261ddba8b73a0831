export * from './types';
export { CheckpointMovedError, writeBatch } from './write-batch';
