export {
  type GetTransactionsRequest,
  ProtoTransaction,
  RawDataClient,
  type RawDataServer,
  RawDataService,
  TransactionsResponse,
} from './messages';
export { renderMoveType } from './proto-move-type';
export { base64ToHex, protoToRest, type RestTransaction, timestampUs } from './proto-to-rest';
export { protoFromJson, streamedToRest } from './to-rest';
