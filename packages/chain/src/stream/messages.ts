import { aptos } from '@aptos-labs/aptos-protos';

/**
 * The Transaction Stream's message types and service, from `@aptos-labs/aptos-protos` (ts-proto
 * stubs published by Aptos; see docs/DECISIONS.md). One place names them so the indexer's client and
 * the devnet's server speak exactly the same messages.
 */
export const ProtoTransaction = aptos.transaction.v1.Transaction;
export type ProtoTransaction = aptos.transaction.v1.Transaction;
export const TransactionsResponse = aptos.indexer.v1.TransactionsResponse;
export type TransactionsResponse = aptos.indexer.v1.TransactionsResponse;
export type GetTransactionsRequest = aptos.indexer.v1.GetTransactionsRequest;
export const RawDataClient = aptos.indexer.v1.RawDataClient;
export type RawDataClient = aptos.indexer.v1.RawDataClient;
export const RawDataService = aptos.indexer.v1.RawDataService;
export type RawDataServer = aptos.indexer.v1.RawDataServer;
