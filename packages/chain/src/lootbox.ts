import { isAddress, normalizeAddress } from './address';
import { DecodeError } from './decode-error';
import type { LootboxFact, LootboxTier } from './domain';
import { eventRef } from './event-ref';
import { asArray, asString, asUintString, type JsonRecord } from './json';
import type { TxEvent, TxView } from './transaction-view';

/**
 * mdq's blind-box contract `<LOOTBOX_ADDRESS>::lootbox` (events and fields: packages/chain/README.md,
 * "Lootbox module"). It is our
 * own contract, so an event that does not match the documented fields is malformed input (a
 * contract/decoder version mismatch) and fails the transaction loudly instead of being skipped.
 */
export function decodeLootboxEvents(view: TxView, lootboxAddress: string): LootboxFact[] {
  const address = normalizeAddress(lootboxAddress);
  const facts: LootboxFact[] = [];
  for (const event of view.events) {
    const struct = event.struct;
    if (!struct || struct.address !== address || struct.module !== 'lootbox') continue;
    const fact = decodeLootboxEvent(view, event, struct.name);
    if (fact) facts.push(fact);
  }
  return facts;
}

function decodeLootboxEvent(view: TxView, event: TxEvent, name: string): LootboxFact | null {
  const read = new FieldReader(view, event);
  const ref = eventRef(view, event.index);
  switch (name) {
    case 'LootboxCreatedEvent':
      return {
        ...ref,
        kind: 'created',
        lootboxId: read.u64('lootbox_id'),
        creator: read.address('creator'),
        collectionName: read.string('collection_name'),
        collectionId: read.address('collection'),
        price: read.u64('price'),
        coinType: read.string('coin_type'),
        maxSupply: read.u64('max_supply'),
        mintStartSecs: read.u64('mint_start_secs'),
        mintEndSecs: read.u64('mint_end_secs'),
        tiers: read.tiers('tiers'),
      };
    case 'LootboxUpdatedEvent':
      return {
        ...ref,
        kind: 'updated',
        lootboxId: read.u64('lootbox_id'),
        price: read.u64('price'),
        mintStartSecs: read.u64('mint_start_secs'),
        mintEndSecs: read.u64('mint_end_secs'),
        paused: read.bool('paused'),
      };
    case 'LootboxPurchasedEvent':
      return {
        ...ref,
        kind: 'purchased',
        lootboxId: read.u64('lootbox_id'),
        buyer: read.address('buyer'),
        quantity: read.u64('quantity'),
        amountPaid: read.u64('amount_paid'),
        coinType: read.string('coin_type'),
      };
    case 'LootboxOpenedEvent':
      return {
        ...ref,
        kind: 'opened',
        lootboxId: read.u64('lootbox_id'),
        owner: read.address('owner'),
        tokenDataId: read.address('token'),
        tier: read.string('tier'),
      };
    default:
      // Other structs of the module (resources, future events) are not facts.
      return null;
  }
}

class FieldReader {
  constructor(
    private readonly view: TxView,
    private readonly event: TxEvent,
  ) {}

  private fail(name: string, expected: string): never {
    throw new DecodeError(
      `event ${this.event.index} (${this.event.type}) field ${name} is not ${expected}`,
      this.view.versionText,
    );
  }

  u64(name: string, data: JsonRecord = this.event.data): string {
    return asUintString(data[name]) ?? this.fail(name, 'a u64');
  }

  string(name: string, data: JsonRecord = this.event.data): string {
    return asString(data[name]) ?? this.fail(name, 'a string');
  }

  address(name: string): string {
    const value = this.event.data[name];
    // `Object<T>` values render as {inner}; plain addresses as strings.
    const text =
      typeof value === 'object' && value !== null ? asString(Reflect.get(value, 'inner')) : asString(value);
    if (text === null || !isAddress(text)) this.fail(name, 'an address');
    return normalizeAddress(text as string);
  }

  bool(name: string): boolean {
    const value = this.event.data[name];
    if (typeof value !== 'boolean') this.fail(name, 'a bool');
    return value as boolean;
  }

  tiers(name: string): LootboxTier[] {
    const list = asArray(this.event.data[name]) ?? this.fail(name, 'a vector');
    return list.map((tier) => {
      if (typeof tier !== 'object' || tier === null || Array.isArray(tier))
        this.fail(name, 'a vector of tiers');
      const record = tier as JsonRecord;
      return {
        name: this.string('name', record),
        weight: this.u64('weight', record),
        maxSupply: this.u64('max_supply', record),
      };
    });
  }
}
