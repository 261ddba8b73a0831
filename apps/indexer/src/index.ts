export { type FailedDecode, toBatch, usToIso } from '@mdq/db';
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
  type IndexerOptions,
  type IndexerStats,
  runIndexer,
} from './run-indexer';
export { type ChainSource, type ChainTip, fullnodeSource, versionOf } from './source';
export { type TipWatcher, watchChainTip } from './watch-tip';
