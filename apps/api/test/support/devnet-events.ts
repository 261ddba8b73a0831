import { type DevnetChain, simulate } from '@mdq/devnet';

/** A market or lootbox event as the devnet's simulator decided it, independent of mdq's code. */
export interface PlannedEvent {
  version: number;
  kind: string;
  price: string | null;
}

/**
 * The feed kinds the simulator's plans imply, version by version, for versions 0..lastVersion:
 * the devnet's own account of what happened, read from its plans (not from the indexer or DB).
 * Token kinds (mint, transfer, burn) are counted separately: how many transfer events a market
 * action emits depends on the token standard's escrow mechanics.
 */
export function plannedEvents(chain: DevnetChain, lastVersion: number) {
  const market: PlannedEvent[] = [];
  let mints = 0;
  let burns = 0;
  /** The last version whose plan emits any feed event: consumers are complete once they reach it. */
  let lastEventVersion = -1;
  simulate(chain.world, lastVersion + 1, {
    after(_sim, plan, version) {
      if (!['create_collection', 'create_lootbox', 'update_lootbox'].includes(plan.kind))
        lastEventVersion = version;
      const add = (kind: string, price: number | null = null) =>
        market.push({ version, kind, price: price === null ? null : String(price) });
      switch (plan.kind) {
        case 'list':
        case 'relist':
          return add('listing_placed', plan.price);
        case 'cancel_listing':
          return add('listing_cancelled', plan.price);
        case 'fill_listing':
          return add('listing_sold', plan.price);
        case 'place_token_offer':
          return add('token_offer_placed', plan.offer.price);
        case 'cancel_token_offer':
          return add('token_offer_cancelled', plan.offer.price);
        case 'fill_token_offer':
          return add('token_offer_filled', plan.offer.price);
        case 'place_collection_offer':
          return add('collection_offer_placed', plan.offer.price);
        case 'cancel_collection_offer':
          return add('collection_offer_cancelled', plan.offer.price);
        case 'fill_collection_offer':
          return add('collection_offer_filled', plan.offer.price);
        case 'purchase_lootbox':
          return add('lootbox_purchased', plan.amount);
        case 'open_lootbox':
          mints++;
          return add('lootbox_opened');
        case 'mint':
          mints += plan.tokens.length;
          return;
        case 'burn':
          burns++;
          return;
        default:
          return;
      }
    },
  });
  return { market, mints, burns, lastEventVersion };
}
