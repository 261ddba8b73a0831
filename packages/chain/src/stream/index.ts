export {
  type BooleanTransactionFilter,
  type GetTransactionsRequest,
  ProtoTransaction,
  ProtoTransactionType,
  RawDataClient,
  type RawDataServer,
  RawDataService,
  TransactionsResponse,
} from './messages';
export { moveTypeJson } from './move-type-json';
export { renderMoveType } from './proto-move-type';
export { base64ToHex, protoToRest, type RestTransaction, timestampUs } from './proto-to-rest';
export { restToProto } from './rest-to-proto';
export { protoFromJson, streamedToRest } from './to-rest';
export { transactionStreamFilter } from './transaction-filter';
export {
  isUnknownRestType,
  kindOfRestType,
  TRANSACTION_KINDS,
  type TransactionKind,
  UNKNOWN_REST_TYPE,
} from './transaction-types';
