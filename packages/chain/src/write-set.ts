import { isAddress, normalizeAddress } from './address';
import { T } from './framework-types';
import { asString, type JsonRecord } from './json';
import type { ResourceWrite, TxView } from './transaction-view';

/**
 * Lookups over one transaction's write set: resources by (address, type), deleted objects, object
 * owners. Each resource appears once per address and type in a write set (the final value).
 */
export class WriteSetIndex {
  private readonly byAddress = new Map<string, Map<string, ResourceWrite>>();
  private readonly deletedObjects = new Set<string>();

  constructor(view: TxView) {
    for (const write of view.resourceWrites) {
      if (!write.struct) continue;
      let resources = this.byAddress.get(write.address);
      if (!resources) {
        resources = new Map();
        this.byAddress.set(write.address, resources);
      }
      resources.set(write.struct.key, write);
    }
    for (const deleted of view.resourceDeletes) {
      if (deleted.struct?.key === T.objectGroup) this.deletedObjects.add(deleted.address);
    }
  }

  resource(address: string, typeKey: string): JsonRecord | null {
    return this.byAddress.get(address)?.get(typeKey)?.data ?? null;
  }

  has(address: string, typeKey: string): boolean {
    return this.byAddress.get(address)?.has(typeKey) ?? false;
  }

  /** The first resource at `address` whose type key is `typeKey` ignoring generics (e.g. `CoinOffer<T>`). */
  resourceWrite(address: string, typeKey: string): ResourceWrite | null {
    return this.byAddress.get(address)?.get(typeKey) ?? null;
  }

  addressesWith(typeKey: string): string[] {
    const found: string[] = [];
    for (const [address, resources] of this.byAddress) if (resources.has(typeKey)) found.push(address);
    return found;
  }

  isObjectDeleted(address: string): boolean {
    return this.deletedObjects.has(address);
  }

  /** `ObjectCore.owner` after this transaction, when the object's core is in the write set. */
  directOwner(address: string): string | null {
    const owner = asString(this.resource(address, T.objectCore)?.['owner']);
    return owner !== null && isAddress(owner) ? normalizeAddress(owner) : null;
  }

  /**
   * Soulbound = the owner cannot move it: `0x1::object::Untransferable`, or ungated transfer
   * disabled on the object (how soulbound tokens were made before Untransferable existed).
   * Null when the object's core is not in this write set.
   */
  isSoulbound(address: string): boolean | null {
    const core = this.resource(address, T.objectCore);
    if (core === null) return null;
    return this.has(address, T.untransferable) || core['allow_ungated_transfer'] === false;
  }

  /**
   * Follow `ObjectCore.owner` while the owner is itself an object in this write set (a listing or
   * escrow object owns the token and the seller owns the listing), so ownership lands on the wallet.
   */
  resolveOwner(owner: string): string {
    let current = owner;
    const seen = new Set<string>([current]);
    for (;;) {
      const next = this.directOwner(current);
      if (next === null || seen.has(next)) return current;
      seen.add(next);
      current = next;
    }
  }
}
