import { ProtoTransaction } from './messages';
import { protoToRest, type RestTransaction } from './proto-to-rest';

/**
 * A streamed transaction becomes the decoder's input through the one converter the fixtures use:
 * ts-proto's `toJSON` gives canonical proto3 JSON (the fixtures' form), `protoToRest` gives the
 * fullnode REST JSON. The decoder never learns which source a transaction came from.
 */
export function streamedToRest(message: ProtoTransaction): RestTransaction {
  return protoToRest(ProtoTransaction.toJSON(message));
}

/** Canonical proto3 JSON → the message (the devnet server and the tests encode with it). */
export function protoFromJson(json: unknown): ProtoTransaction {
  return ProtoTransaction.fromJSON(json);
}
