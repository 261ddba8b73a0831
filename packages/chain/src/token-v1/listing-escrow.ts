import type { MarketActivityFact, OwnershipFact } from '../domain';

/**
 * Listing a v1 token on an escrow marketplace (Wapal, mdq, the reference marketplace) withdraws it
 * from the seller's TokenStore into a container the marketplace holds: on chain the seller's
 * balance drops to 0 until the listing closes. For a wallet, its holders and its inventory the
 * token is still the seller's (v2 listings resolve to the seller through object ownership the same
 * way), so while listed we count it for the seller:
 * - place_listing: the seller holds the listed amount (overriding the TokenStore's 0);
 * - fill_listing with no TokenStore write for the seller: the seller holds 0 afterwards.
 * A cancel deposits the token back into the seller's TokenStore, which the table facts show.
 * Assumes one edition per listing, which holds for NFTs (v1 supply-1 tokens).
 */
export function applyV1ListingEscrow(
  ownerships: OwnershipFact[],
  market: readonly MarketActivityFact[],
  version: number,
): OwnershipFact[] {
  let result = ownerships;
  for (const m of market) {
    if (m.tokenStandard !== 'v1' || !m.tokenDataId || !m.seller) continue;
    if (m.kind !== 'place_listing' && m.kind !== 'fill_listing') continue;
    const propertyVersion = m.propertyVersion ?? '0';
    const same = (o: OwnershipFact) =>
      o.tokenDataId === m.tokenDataId && o.propertyVersion === propertyVersion && o.owner === m.seller;
    const shown = result.filter(same);
    if (m.kind === 'fill_listing' && shown.length > 0) continue;
    if (m.kind === 'place_listing' && shown.some((o) => o.amount !== '0')) continue;
    result = [
      ...result.filter((o) => !same(o)),
      {
        tokenDataId: m.tokenDataId,
        tokenStandard: 'v1',
        propertyVersion,
        collectionId: m.collectionId,
        owner: m.seller,
        tableHandle: shown[0]?.tableHandle ?? null,
        amount: m.kind === 'place_listing' ? m.tokenAmount : '0',
        isSoulbound: null,
        version,
      },
    ];
  }
  return result;
}
