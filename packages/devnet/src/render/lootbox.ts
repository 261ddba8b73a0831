import type { Plan } from '../sim/plan';
import type { SimState } from '../sim/state';
import type { TxBuilder } from './builder';
import { APT, type Entities } from './entities';
import type { MoveJson } from './rest-types';
import { emitMint, writeCollectionCreation, writeSupply, writeTokenGroup } from './token-v2';
import type { Call } from './tokens';

type PlanOf<K extends Plan['kind']> = Extract<Plan, { kind: K }>;

/** The lootbox module's own resource, kept on the lootbox collection object. */
function writeLootbox(b: TxBuilder, e: Entities, s: SimState, lootbox: number): void {
  const spec = e.world.lootboxes[lootbox];
  const st = s.lootboxes[lootbox];
  if (spec === undefined || st === undefined) return;
  b.writeResource(e.collectionAddress(spec.collection), `${e.lootbox}::lootbox::Lootbox`, {
    coin_type: APT,
    creator: e.account(spec.creator),
    lootbox_id: String(spec.lootboxId),
    max_supply: String(spec.maxSupply),
    mint_end_secs: String(st.mintEndSecs),
    mint_start_secs: String(st.mintStartSecs),
    minted: String(st.minted),
    paused: st.paused,
    price: String(st.price),
    purchased: String(st.purchased),
  });
}

function type(e: Entities, name: string): string {
  return `${e.lootbox}::lootbox::${name}`;
}

export function renderLootbox(
  b: TxBuilder,
  e: Entities,
  s: SimState,
  p: PlanOf<'create_lootbox' | 'update_lootbox' | 'purchase_lootbox' | 'open_lootbox'>,
): Call {
  const spec = e.world.lootboxes[p.lootbox];
  if (spec === undefined) throw new Error(`no lootbox ${p.lootbox}`);
  const id = String(spec.lootboxId);
  const coll = e.collection(spec.collection);
  switch (p.kind) {
    case 'create_lootbox': {
      writeCollectionCreation(b, e, s, spec.collection);
      const tiers: MoveJson = spec.tiers.map((t) => ({
        max_supply: String(t.maxSupply),
        name: t.name,
        weight: String(t.weight),
      }));
      b.moduleEvent(type(e, 'LootboxCreatedEvent'), {
        coin_type: APT,
        collection: e.collectionAddress(spec.collection),
        collection_name: coll.name,
        creator: e.account(spec.creator),
        lootbox_id: id,
        max_supply: String(spec.maxSupply),
        mint_end_secs: String(spec.mintEndSecs),
        mint_start_secs: String(spec.mintStartSecs),
        price: String(spec.price),
        tiers,
      });
      writeLootbox(b, e, s, p.lootbox);
      return {
        function: `${e.lootbox}::lootbox::create_lootbox`,
        typeArguments: [APT],
        arguments: [
          coll.name,
          coll.description,
          coll.uri,
          String(spec.price),
          String(spec.maxSupply),
          String(spec.mintStartSecs),
          String(spec.mintEndSecs),
          spec.tiers.map((t) => t.name),
          spec.tiers.map((t) => String(t.weight)),
          spec.tiers.map((t) => String(t.maxSupply)),
        ],
      };
    }
    case 'update_lootbox':
      b.moduleEvent(type(e, 'LootboxUpdatedEvent'), {
        lootbox_id: id,
        mint_end_secs: String(p.mintEndSecs),
        mint_start_secs: String(p.mintStartSecs),
        paused: p.paused,
        price: String(p.price),
      });
      writeLootbox(b, e, s, p.lootbox);
      return {
        function: `${e.lootbox}::lootbox::update_lootbox`,
        typeArguments: [],
        arguments: [id, String(p.price), String(p.mintStartSecs), String(p.mintEndSecs), p.paused],
      };
    case 'purchase_lootbox':
      b.moduleEvent(type(e, 'LootboxPurchasedEvent'), {
        amount_paid: String(p.amount),
        buyer: e.account(p.buyer),
        coin_type: APT,
        lootbox_id: id,
        quantity: String(p.quantity),
      });
      writeLootbox(b, e, s, p.lootbox);
      return {
        function: `${e.lootbox}::lootbox::purchase`,
        typeArguments: [APT],
        arguments: [id, String(p.quantity)],
      };
    case 'open_lootbox': {
      const m = p.minted;
      const owner = e.account(p.owner);
      emitMint(b, e, spec.collection, m.token, m.serial, m.mintSeq, owner);
      b.moduleEvent(type(e, 'LootboxOpenedEvent'), {
        lootbox_id: id,
        owner,
        tier: spec.tiers[m.tier]?.name ?? 'Common',
        token: e.tokenAddress(m.token),
      });
      writeTokenGroup(b, e, s, m.token, owner, true);
      writeSupply(b, e, s, spec.collection);
      writeLootbox(b, e, s, p.lootbox);
      return { function: `${e.lootbox}::lootbox::open`, typeArguments: [], arguments: [id] };
    }
  }
}
