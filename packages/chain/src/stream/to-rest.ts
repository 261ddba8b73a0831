import { ProtoTransaction } from './messages';
import { protoToRest, type RestTransaction } from './proto-to-rest';

/**
 * A streamed transaction becomes the decoder's input through the one converter the fixtures use:
 * ts-proto's `toJSON` gives canonical proto3 JSON (the fixtures' form), `protoToRest` gives the
 * fullnode REST JSON. The decoder never learns which source a transaction came from.
 */
export function streamedToRest(message: ProtoTransaction): RestTransaction {
  const json = ProtoTransaction.toJSON(message) as Record<string, unknown>;
  // ts-proto prints an enum number it has no name for as "UNRECOGNIZED"; canonical proto3 JSON
  // prints the number, which protoToRest keeps on the opaque transaction.
  if (json['type'] === 'UNRECOGNIZED') json['type'] = message.type;
  return protoToRest(json);
}

/** Canonical proto3 JSON → the message (the devnet server and the tests encode with it). */
export function protoFromJson(json: unknown): ProtoTransaction {
  const message = ProtoTransaction.fromJSON(json);
  // fromJSON maps a number it has no name for to UNRECOGNIZED (-1): keep the number itself.
  const type = (json as { type?: unknown } | null)?.type;
  if (typeof type === 'number') message.type = type;
  return message;
}
