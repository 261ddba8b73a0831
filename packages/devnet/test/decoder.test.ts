import { builtinMarketplaces, decodeTransaction } from '@mdq/chain';
import { describe, expect, it } from 'vitest';
import { DevnetChain, streamTransactions } from '../src/index';

describe('the @mdq/chain decoder reads the devnet', () => {
  it('decodes every transaction and finds every sale and lootbox event', () => {
    const options = { preset: 'tiny' as const, seed: 9 };
    const chain = new DevnetChain(options);
    const facts = chain.getFacts();
    const decodeOptions = {
      marketplaces: builtinMarketplaces(chain.config.marketplaceAddress),
      lootboxAddress: chain.config.lootboxAddress,
    };
    let fills = 0;
    let volume = 0n;
    let lootboxEvents = 0;
    let minted = 0;
    const funded = new Set<number>();
    for (const tx of streamTransactions(options)) {
      const d = decodeTransaction(tx as unknown as Record<string, unknown>, decodeOptions);
      for (const m of d.marketActivities) {
        if (m.kind.startsWith('fill_')) {
          fills++;
          volume += BigInt(m.price);
          if (m.sellerFunded) funded.add(m.version);
        }
      }
      lootboxEvents += d.lootbox.length;
      minted += d.tokenActivities.filter((a) => a.kind === 'mint').length;
    }
    expect(fills).toBe(facts.totals.sales);
    expect(String(volume)).toBe(facts.totals.volume);
    expect(lootboxEvents).toBeGreaterThan(0);
    expect(minted).toBe(facts.totals.tokensMinted);
    // The coin events of a funded wash trade (seller pays buyer, buyer pays seller) mark exactly those sales.
    const labelled = new Set(facts.sales.filter((s) => s.wash === 'seller_funded').map((s) => s.version));
    expect(labelled.size).toBeGreaterThan(0);
    expect(funded).toEqual(labelled);
  });
});
