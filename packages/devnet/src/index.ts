export { DevnetChain, type DevnetChainOptions } from './chain/devnet-chain';
export { type StepObserver, simulate, streamTransactions } from './chain/stream';
export { DEVNET_HELP, runDevnetCli } from './cli';
export {
  type ChainConfig,
  type ChainOptions,
  DEFAULT_END_TIME_MS,
  PRESET_TRANSACTIONS,
  type Preset,
  resolveConfig,
} from './config';
export type * from './facts/types';
export {
  type DevnetGrpcOptions,
  type DevnetGrpcServer,
  type GrpcFaults,
  type StreamedChain,
  startGrpcServer,
} from './grpc/grpc-server';
export { loadRecorded, type RecordedTransaction } from './recorded/load-recorded';
export type {
  MoveJson,
  RestChange,
  RestEvent,
  RestLedgerInfo,
  RestTransaction,
  RestUserTransaction,
} from './render/rest-types';
export { MAX_PAGE } from './server/routes';
export {
  DEFAULT_DEVNET_PORT,
  type DevnetServer,
  type DevnetServerOptions,
  startDevnetServer,
} from './server/start-server';
