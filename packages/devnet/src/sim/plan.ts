import type { CollectionOffer, TokenOffer, WashLabel } from './state';

/** One token minted in a transaction; `mintSeq` is the collection's MintEvent sequence number. */
export interface MintedToken {
  token: number;
  serial: number;
  to: number;
  mintSeq: number;
  /** v1: sequence numbers of the creator's deposit/withdraw and the receiver's deposit. */
  creatorDepositSeq: number;
  creatorWithdrawSeq: number;
  receiverDepositSeq: number;
  tokenDataSeq: number;
  tier: number;
}

export type { WashLabel } from './state';

interface Base {
  sender: number;
  sequenceNumber: number;
}

/**
 * What happened in one transaction, decided by the simulator. The renderer turns a plan into the
 * REST JSON; the facts recorder reads the same plan. Sequence numbers of handle events are taken
 * when the plan is made so the renderer never has to guess them.
 */
export type Plan = Base &
  (
    | { kind: 'create_collection'; collection: number; v1CollectionSeq: number }
    | { kind: 'mint'; collection: number; tokens: MintedToken[] }
    | {
        kind: 'transfer';
        token: number;
        from: number;
        to: number;
        transferSeq: number;
        v1Seqs: [number, number];
      }
    | { kind: 'burn'; token: number; owner: number; burnSeq: number; v1Seqs: [number, number] }
    | {
        kind: 'list';
        token: number;
        seller: number;
        listingId: number;
        price: number;
        transferSeq: number;
        v1Seq: number;
        marketSeq: number;
      }
    | { kind: 'relist'; token: number; seller: number; listingId: number; price: number; marketSeq: number }
    | {
        kind: 'cancel_listing' | 'fill_listing';
        token: number;
        seller: number;
        buyer: number;
        listingId: number;
        price: number;
        transferSeq: number;
        v1Seq: number;
        marketSeq: number;
        /** Set on the sales of a wash-trade campaign. */
        wash?: WashLabel;
        /** Octas the seller pays the buyer in the same transaction (a funded wash trade). */
        funding?: number;
      }
    | { kind: 'place_token_offer'; offer: TokenOffer; marketSeq: number }
    | { kind: 'cancel_token_offer'; offer: TokenOffer; marketSeq: number }
    | {
        kind: 'fill_token_offer';
        offer: TokenOffer;
        seller: number;
        transferSeq: number;
        v1Seqs: [number, number];
        marketSeq: number;
      }
    | { kind: 'place_collection_offer'; offer: CollectionOffer; marketSeq: number }
    | { kind: 'cancel_collection_offer'; offer: CollectionOffer; marketSeq: number }
    | {
        kind: 'fill_collection_offer';
        offer: CollectionOffer;
        token: number;
        seller: number;
        transferSeq: number;
        v1Seqs: [number, number];
        marketSeq: number;
      }
    | { kind: 'create_lootbox'; lootbox: number }
    | {
        kind: 'update_lootbox';
        lootbox: number;
        price: number;
        mintStartSecs: number;
        mintEndSecs: number;
        paused: boolean;
      }
    | { kind: 'purchase_lootbox'; lootbox: number; buyer: number; quantity: number; amount: number }
    | { kind: 'open_lootbox'; lootbox: number; owner: number; minted: MintedToken }
    /** Noise: an APT transfer between wallets, touching no NFT module (ChainOptions.noiseShare). */
    | { kind: 'coin_transfer'; from: number; to: number; amount: number }
  );
