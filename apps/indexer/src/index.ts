export { checkContiguity, GapError } from './contiguity';
export { createDecoder, type DecoderOptions } from './decoder';
export {
  ChainIdMismatchError,
  type GrpcSourceOptions,
  grpcSource,
  StreamProtocolError,
} from './grpc-source';
export { memorySource } from './memory-source';
export {
  type BatchCommitted,
  type Decoder,
  type IndexerLog,
  type IndexerOptions,
  type IndexerStats,
  runIndexer,
} from './run-indexer';
export { type ChainSource, type ChainTip, fullnodeSource, versionOf } from './source';
export { usToIso } from './time';
export { type FailedDecode, toBatch } from './to-batch';
export { type TipWatcher, watchChainTip } from './watch-tip';
