import { isAddress, normalizeAddress } from './address';
import type { MarketActivityFact } from './domain';
import { asString, asUintString } from './json';
import { structKey } from './move-type';
import type { TxView } from './transaction-view';
import type { WriteSetIndex } from './write-set';

/** One wallet's coin movement in a transaction, as the coin / fungible-asset events report it. */
export interface CoinMove {
  account: string;
  direction: 'withdraw' | 'deposit';
  amount: bigint;
}

const K = {
  // Coin standard, handle events: the account is the event handle's owner.
  withdrawEvent: structKey('0x1::coin::WithdrawEvent'),
  depositEvent: structKey('0x1::coin::DepositEvent'),
  // Coin standard, module events (2024 on): the account is a field.
  coinWithdraw: structKey('0x1::coin::CoinWithdraw'),
  coinDeposit: structKey('0x1::coin::CoinDeposit'),
  // Fungible assets: the event names the store; its owner is in the store's ObjectCore when written.
  faWithdraw: structKey('0x1::fungible_asset::Withdraw'),
  faDeposit: structKey('0x1::fungible_asset::Deposit'),
  faWithdrawEvent: structKey('0x1::fungible_asset::WithdrawEvent'),
  faDepositEvent: structKey('0x1::fungible_asset::DepositEvent'),
};

function addressOf(value: unknown): string | null {
  const text = asString(value);
  return text !== null && isAddress(text) ? normalizeAddress(text) : null;
}

/** Every withdraw and deposit of the transaction whose wallet can be told from the transaction. */
export function decodeCoinMoves(view: TxView, writeSet: WriteSetIndex): CoinMove[] {
  const moves: CoinMove[] = [];
  for (const event of view.events) {
    const key = event.struct?.key;
    if (key === undefined) continue;
    const amount = asUintString(event.data['amount']);
    if (amount === null) continue;
    let account: string | null = null;
    let direction: CoinMove['direction'] = 'withdraw';
    if (key === K.withdrawEvent || key === K.depositEvent) {
      account = event.isModuleEvent ? null : event.account;
      direction = key === K.withdrawEvent ? 'withdraw' : 'deposit';
    } else if (key === K.coinWithdraw || key === K.coinDeposit) {
      account = addressOf(event.data['account']);
      direction = key === K.coinWithdraw ? 'withdraw' : 'deposit';
    } else if (key === K.faWithdraw || key === K.faDeposit) {
      const store = addressOf(event.data['store']);
      account = store === null ? null : writeSet.directOwner(store);
      direction = key === K.faWithdraw ? 'withdraw' : 'deposit';
    } else if (key === K.faWithdrawEvent || key === K.faDepositEvent) {
      account = event.isModuleEvent ? null : writeSet.directOwner(event.account);
      direction = key === K.faWithdrawEvent ? 'withdraw' : 'deposit';
    } else continue;
    if (account !== null) moves.push({ account, direction, amount: BigInt(amount) });
  }
  return moves;
}

/**
 * Wash-trade rule "the seller paid the buyer the price in the same transaction": the seller withdrew
 * at least the price and the buyer received at least the price. An honest purchase moves money the
 * other way only (buyer withdraws, seller and fee takers deposit), so neither half happens in it.
 */
export function sellerFundedBuyer(moves: readonly CoinMove[], sale: MarketActivityFact): boolean {
  if (sale.seller === null || sale.buyer === null || sale.seller === sale.buyer) return false;
  const price = BigInt(sale.price);
  if (price === 0n) return false;
  const total = (account: string, direction: CoinMove['direction']) =>
    moves
      .filter((m) => m.account === account && m.direction === direction)
      .reduce((sum, m) => sum + m.amount, 0n);
  return total(sale.seller, 'withdraw') >= price && total(sale.buyer, 'deposit') >= price;
}
