import { isAddress, normalizeAddress } from '../address';
import { type PathSegment, parseJsonPath, readPath } from '../json-path';
import { structKey } from '../move-type';
import type { TxEvent } from '../transaction-view';
import { v1CollectionId, v1TokenDataId } from '../v1-ids';
import type { WriteSetIndex } from '../write-set';
import type { FieldSource, FieldUnit } from './config';

/** A field source with its JSON paths parsed, ready to evaluate against events. */
export type CompiledSource =
  | { kind: 'path'; path: PathSegment[]; unit: FieldUnit | null }
  | { kind: 'const'; value: string }
  | { kind: 'eventTypeArg'; index: number }
  | { kind: 'v1TokenDataId'; creator: PathSegment[]; collection: PathSegment[]; name: PathSegment[] }
  | { kind: 'v1CollectionId'; creator: PathSegment[]; collection: PathSegment[] }
  | { kind: 'resource'; type: string; at: PathSegment[]; path: PathSegment[]; unit: FieldUnit | null }
  | { kind: 'ifDeleted'; at: PathSegment[]; value: string }
  | { kind: 'sender' };

export function compileSource(source: FieldSource): CompiledSource {
  if (typeof source === 'string') return { kind: 'path', path: parseJsonPath(source), unit: null };
  if ('path' in source && !('resource' in source)) {
    return { kind: 'path', path: parseJsonPath(source.path), unit: source.unit ?? null };
  }
  if ('const' in source) return { kind: 'const', value: source.const };
  if ('transactionSender' in source) return { kind: 'sender' };
  if ('eventTypeArg' in source) return { kind: 'eventTypeArg', index: source.eventTypeArg };
  if ('v1TokenDataId' in source) {
    const { creator, collection, name } = source.v1TokenDataId;
    return {
      kind: 'v1TokenDataId',
      creator: parseJsonPath(creator),
      collection: parseJsonPath(collection),
      name: parseJsonPath(name),
    };
  }
  if ('v1CollectionId' in source) {
    const { creator, collection } = source.v1CollectionId;
    return { kind: 'v1CollectionId', creator: parseJsonPath(creator), collection: parseJsonPath(collection) };
  }
  if ('resource' in source) {
    return {
      kind: 'resource',
      type: structKey(source.resource),
      at: parseJsonPath(source.at),
      path: parseJsonPath(source.path),
      unit: source.unit ?? null,
    };
  }
  return { kind: 'ifDeleted', at: parseJsonPath(source.ifDeleted), value: source.value };
}

/** Scalars become strings (u64 are strings already); objects and arrays are not field values. */
function scalar(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

function applyUnit(value: string | null, unit: FieldUnit | null): string | null {
  if (value === null || unit === null) return value;
  return /^\d+$/.test(value) ? (BigInt(value) * 1_000_000n).toString() : null;
}

function addressAt(event: TxEvent, path: PathSegment[]): string | null {
  const value = scalar(readPath(event.data, path));
  return value !== null && isAddress(value) ? normalizeAddress(value) : null;
}

export function evaluateSource(
  source: CompiledSource,
  event: TxEvent,
  writeSet: WriteSetIndex,
  sender: string | null,
): string | null {
  switch (source.kind) {
    case 'path':
      return applyUnit(scalar(readPath(event.data, source.path)), source.unit);
    case 'const':
      return source.value;
    case 'eventTypeArg':
      return event.struct?.typeArgs[source.index] ?? null;
    case 'v1TokenDataId': {
      const creator = scalar(readPath(event.data, source.creator));
      const collection = scalar(readPath(event.data, source.collection));
      const name = scalar(readPath(event.data, source.name));
      if (creator === null || !isAddress(creator) || collection === null || name === null) return null;
      return v1TokenDataId(creator, collection, name);
    }
    case 'v1CollectionId': {
      const creator = scalar(readPath(event.data, source.creator));
      const collection = scalar(readPath(event.data, source.collection));
      if (creator === null || !isAddress(creator) || collection === null) return null;
      return v1CollectionId(creator, collection);
    }
    case 'resource': {
      const address = addressAt(event, source.at);
      if (address === null) return null;
      const resource = writeSet.resource(address, source.type);
      return resource ? applyUnit(scalar(readPath(resource, source.path)), source.unit) : null;
    }
    case 'ifDeleted': {
      const address = addressAt(event, source.at);
      return address !== null && writeSet.isObjectDeleted(address) ? source.value : null;
    }
    case 'sender':
      return sender;
  }
}
