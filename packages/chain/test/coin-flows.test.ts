import { describe, expect, it } from 'vitest';
import type { MarketActivityFact } from '../src/index';
import { decodeCoinMoves, normalizeAddress, sellerFundedBuyer } from '../src/index';
import { moduleEvent, userTransaction, writeResource } from '../src/testing';
import { readTransaction } from '../src/transaction-view';
import { WriteSetIndex } from '../src/write-set';

const SELLER = normalizeAddress('0x5e11');
const BUYER = normalizeAddress('0xb0b');
const [SELLER_STORE, BUYER_STORE] = [normalizeAddress('0x5701'), normalizeAddress('0x5702')];

const sale = (price: string): MarketActivityFact =>
  ({ kind: 'fill_listing', seller: SELLER, buyer: BUYER, price }) as MarketActivityFact;

function movesOf(tx: Record<string, unknown>) {
  const view = readTransaction(tx);
  return decodeCoinMoves(view, new WriteSetIndex(view));
}

/** Primary fungible stores: the event names the store, its ObjectCore names the wallet. */
const storeCores = [
  writeResource(SELLER_STORE, '0x1::object::ObjectCore', { owner: SELLER, allow_ungated_transfer: false }),
  writeResource(BUYER_STORE, '0x1::object::ObjectCore', { owner: BUYER, allow_ungated_transfer: false }),
];

describe('coin moves and the seller-funded rule', () => {
  it('reads coin handle events, coin module events and fungible-asset store events', () => {
    const moves = movesOf(
      userTransaction(
        [
          { type: '0x1::coin::WithdrawEvent', data: { amount: '5' }, account: SELLER, creationNumber: '3' },
          moduleEvent('0x1::coin::CoinDeposit', {
            account: BUYER,
            amount: '6',
            coin_type: '0x1::aptos_coin::AptosCoin',
          }),
          moduleEvent('0x1::fungible_asset::Withdraw', { store: BUYER_STORE, amount: '7' }),
          moduleEvent('0x1::fungible_asset::Deposit', { store: normalizeAddress('0xdead'), amount: '8' }),
        ],
        storeCores,
      ),
    );
    expect(moves).toEqual([
      { account: SELLER, direction: 'withdraw', amount: 5n },
      { account: BUYER, direction: 'deposit', amount: 6n },
      { account: BUYER, direction: 'withdraw', amount: 7n },
    ]);
  });

  it('an honest purchase (buyer pays, seller and fee taker receive) is not seller-funded', () => {
    const moves = movesOf(
      userTransaction(
        [
          moduleEvent('0x1::fungible_asset::Withdraw', { store: BUYER_STORE, amount: '1000' }),
          moduleEvent('0x1::fungible_asset::Deposit', { store: SELLER_STORE, amount: '985' }),
        ],
        storeCores,
      ),
    );
    expect(sellerFundedBuyer(moves, sale('1000'))).toBe(false);
  });

  it('the seller handing the buyer the price first is seller-funded; less than the price is not', () => {
    const funded = (amount: string) =>
      movesOf(
        userTransaction(
          [
            moduleEvent('0x1::fungible_asset::Withdraw', { store: SELLER_STORE, amount }),
            moduleEvent('0x1::fungible_asset::Deposit', { store: BUYER_STORE, amount }),
            moduleEvent('0x1::fungible_asset::Withdraw', { store: BUYER_STORE, amount: '1000' }),
            moduleEvent('0x1::fungible_asset::Deposit', { store: SELLER_STORE, amount: '985' }),
          ],
          storeCores,
        ),
      );
    expect(sellerFundedBuyer(funded('1000'), sale('1000'))).toBe(true);
    expect(sellerFundedBuyer(funded('999'), sale('1000'))).toBe(false);
  });
});
