export * from './types';
export { writeBatch } from './write-batch';
