export { type FailedDecode, toBatch, usToIso } from '@mdq/db/ingest';
export { checkContiguity, GapError } from './contiguity';
export { createDecoder, type DecoderOptions, streamFilterFor } from './decoder';
export { type GrpcSourceOptions, grpcSource, StreamProtocolError } from './grpc-source';
export { memorySource } from './memory-source';
export {
  type BatchCommitted,
  type Decoder,
  type IndexerOptions,
  type IndexerStats,
  runIndexer,
} from './run-indexer';
export {
  type ChainSource,
  type ChainTip,
  type FullnodeSourceOptions,
  fullnodeSource,
  type SourcePage,
  versionOf,
} from './source';
export { ChainIdMismatchError, FatalSourceError, RateLimitedError } from './source-errors';
export { type TipWatcher, watchChainTip } from './watch-tip';
