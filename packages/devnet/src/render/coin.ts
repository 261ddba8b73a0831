import type { Plan } from '../sim/plan';
import type { SimState } from '../sim/state';
import { hash32 } from '../util/hex';
import type { TxBuilder } from './builder';
import type { Entities } from './entities';
import type { Call } from './tokens';

/**
 * `0x1::aptos_account::transfer` as the chain shows it since fungible-asset APT: a Withdraw and a
 * Deposit module event on the two primary stores and both FungibleStore resources rewritten.
 * Balances are not simulated (nothing reads them); they are stable per store and version.
 */
export function renderCoinTransfer(
  b: TxBuilder,
  e: Entities,
  s: SimState,
  p: Extract<Plan, { kind: 'coin_transfer' }>,
): Call {
  const apt = `0x${'0'.repeat(63)}a`;
  const store = (account: number) => hash32(account, 0, 0x6661);
  for (const [account, event] of [
    [p.from, '0x1::fungible_asset::Withdraw'],
    [p.to, '0x1::fungible_asset::Deposit'],
  ] as const) {
    b.moduleEvent(event, { amount: String(p.amount), store: store(account) });
    b.writeResource(store(account), '0x1::fungible_asset::FungibleStore', {
      balance: String(1_000_000_000_000 + ((account * 7_919 + s.version * 104_729) % 1_000_000_000)),
      frozen: false,
      metadata: { inner: apt },
    });
  }
  return {
    function: '0x1::aptos_account::transfer',
    typeArguments: [],
    arguments: [e.account(p.to), String(p.amount)],
  };
}
