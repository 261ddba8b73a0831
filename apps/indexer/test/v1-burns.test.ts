import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import { DEFAULT_LOOTBOX_ADDRESS, DEFAULT_MARKETPLACE_ADDRESS, v1TokenDataId } from '@mdq/chain';
import { findFixtureTransaction, testFixturesRoot } from '@mdq/chain/fixtures';
import { atVersion, entryFunction, userTransaction } from '@mdq/chain/testing';
import { sql } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { noopNotifier } from '@mdq/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDecoder, memorySource, runIndexer } from '../src/index';

/*
 * A v1 burn sets tokens.is_burned: for good when the burn deleted the TokenData (supply-tracked
 * token at supply 0), else once no positive balance of the token remains (untracked supply, or a
 * fungible token whose other copies are held). Driven through the real decoder, indexer and writer.
 */
const decode = createDecoder({
  marketplaceAddress: DEFAULT_MARKETPLACE_ADDRESS,
  lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
});

async function index(test: TestDatabase, chain: readonly unknown[]): Promise<void> {
  const stats = await runIndexer({
    db: test.db,
    source: memorySource(chain as TransactionResponse[]),
    decode,
    notifier: noopNotifier,
    batchSize: 1,
    untilCaughtUp: true,
  });
  expect(stats.failed).toBe(0);
}

async function burnedState(test: TestDatabase, ids: string[]): Promise<Record<string, boolean>> {
  const { rows } = await sql<{ token_data_id: string; is_burned: boolean }>`
    SELECT token_data_id, is_burned FROM tokens WHERE token_data_id = ANY(${ids}::text[])`.execute(test.db);
  return Object.fromEntries(rows.map((r) => [r.token_data_id, r.is_burned]));
}

const root = testFixturesRoot();

describe.skipIf(root === null)('a v1 burn on mainnet (fixture 11648867, needs ../shared/fixtures)', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test?.drop());

  it('marks the burned Apter Coupon burned, and not the APass name minted beside it', async () => {
    await index(test, [findFixtureTransaction('11648867').rest]);
    // Ids from the official processor's rows for this transaction (token_activities_v2).
    const coupon = '0xedaa0ae425fc01fc52c0873e837713d3ab35009ed423ddad11fb2da06262e8fa';
    const kusama = '0x5f25efaa91cc4131dae76c6b21430e3cda78ec859d7e251f272614970c8434b6';
    expect(await burnedState(test, [coupon, kusama])).toEqual({ [coupon]: true, [kusama]: false });
  });
});

// Hand-built v1 transactions, shaped as 0x3::token writes them (aptos-token/sources/token.move).
const CREATOR = `0x${'c4'.padStart(64, '0')}`;
const ALICE = `0x${'a1'.padStart(64, '0')}`;
const BOB = `0x${'b0'.padStart(64, '0')}`;
const STORES: Record<string, string> = { [ALICE]: '0x71', [BOB]: '0x72' };
const dataIdOf = (name: string) => ({ creator: CREATOR, collection: 'Gems', name });
const tokenIdOf = (name: string) => ({ token_data_id: dataIdOf(name), property_version: '0' });

function tx(version: number, events: unknown[], changes: unknown[]): unknown {
  return userTransaction([], changes as Record<string, unknown>[], {
    ...atVersion(version),
    sender: CREATOR,
    payload: entryFunction('0x3::token::burn'),
    // Handle events, each with its own creation number.
    events: events.map((e, i) => ({
      guid: { creation_number: String(i), account_address: '0x0' },
      sequence_number: '0',
      ...(e as object),
    })),
  });
}

const tokenStore = (owner: string) => ({
  type: 'write_resource',
  address: owner,
  state_key_hash: '0x0',
  data: { type: '0x3::token::TokenStore', data: { tokens: { handle: STORES[owner] } } },
});

function balance(owner: string, name: string, amount: number): unknown {
  const base = { handle: STORES[owner], key: '0x00', state_key_hash: '0x0' };
  const key = tokenIdOf(name);
  return amount === 0
    ? { ...base, type: 'delete_table_item', data: { key, key_type: '0x3::token::TokenId' } }
    : {
        ...base,
        type: 'write_table_item',
        value: '0x00',
        data: {
          key,
          key_type: '0x3::token::TokenId',
          value: { amount: String(amount), id: key, token_properties: { map: { data: [] } } },
          value_type: '0x3::token::Token',
        },
      };
}

function tokenData(name: string, maximum: number, supply: number): unknown {
  return {
    type: 'write_table_item',
    handle: '0x7d',
    key: '0x00',
    value: '0x00',
    state_key_hash: '0x0',
    data: {
      key: dataIdOf(name),
      key_type: '0x3::token::TokenDataId',
      value: {
        default_properties: { map: { data: [] } },
        description: name,
        largest_property_version: '0',
        maximum: String(maximum),
        name,
        supply: String(supply),
        uri: `https://gems.example/${name}.json`,
      },
      value_type: '0x3::token::TokenData',
    },
  };
}

const deleteTokenData = (name: string) => ({
  type: 'delete_table_item',
  handle: '0x7d',
  key: '0x00',
  state_key_hash: '0x0',
  data: { key: dataIdOf(name), key_type: '0x3::token::TokenDataId' },
});

const burnEvent = (owner: string, name: string, amount: number) => ({
  type: '0x3::token::Burn',
  data: { account: owner, id: tokenIdOf(name), amount: String(amount) },
});

describe('v1 burns through the indexer (hand-built)', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test?.drop());

  const ruby = v1TokenDataId(CREATOR, 'Gems', 'Ruby');
  const opal = v1TokenDataId(CREATOR, 'Gems', 'Opal');
  const jade = v1TokenDataId(CREATOR, 'Gems', 'Jade');

  it('a fungible token is burned only when its last copies are, a tracked one when its TokenData goes', async () => {
    const minted = tx(
      10,
      [],
      [
        tokenStore(ALICE),
        tokenStore(BOB),
        // Ruby: untracked supply (maximum 0), 3 copies at Alice, 2 at Bob.
        tokenData('Ruby', 0, 0),
        balance(ALICE, 'Ruby', 3),
        balance(BOB, 'Ruby', 2),
        // Opal: a supply-tracked NFT at Alice. Jade: untracked, one copy at Bob.
        tokenData('Opal', 1, 1),
        balance(ALICE, 'Opal', 1),
        tokenData('Jade', 0, 0),
        balance(BOB, 'Jade', 1),
      ],
    );
    const chain: unknown[] = [minted];
    await index(test, chain);
    expect(await burnedState(test, [ruby, opal, jade])).toEqual({
      [ruby]: false,
      [opal]: false,
      [jade]: false,
    });

    // Alice burns all her Ruby copies (Bob still holds 2) and her Opal (TokenData removed).
    chain.push(
      tx(
        11,
        [burnEvent(ALICE, 'Ruby', 3), burnEvent(ALICE, 'Opal', 1)],
        [tokenStore(ALICE), balance(ALICE, 'Ruby', 0), balance(ALICE, 'Opal', 0), deleteTokenData('Opal')],
      ),
    );
    // Bob burns one Ruby of two, and his only Jade (the TokenData stays: untracked supply).
    chain.push(
      tx(
        12,
        [burnEvent(BOB, 'Ruby', 1), burnEvent(BOB, 'Jade', 1)],
        [tokenStore(BOB), balance(BOB, 'Ruby', 1), balance(BOB, 'Jade', 0)],
      ),
    );
    await index(test, chain);
    expect(await burnedState(test, [ruby, opal, jade])).toEqual({
      [ruby]: false,
      [opal]: true,
      [jade]: true,
    });

    // Bob burns the last Ruby.
    chain.push(tx(13, [burnEvent(BOB, 'Ruby', 1)], [tokenStore(BOB), balance(BOB, 'Ruby', 0)]));
    await index(test, chain);
    expect(await burnedState(test, [ruby])).toEqual({ [ruby]: true });

    // Opal's TokenData was deleted: its creator makes it again under the same name and mints it
    // (same token data id): it is live again.
    chain.push(
      tx(
        14,
        [{ type: '0x3::token::Mint', data: { creator: CREATOR, id: dataIdOf('Opal'), amount: '1' } }],
        [tokenStore(ALICE), tokenData('Opal', 1, 1), balance(ALICE, 'Opal', 1)],
      ),
    );
    await index(test, chain);
    expect(await burnedState(test, [opal, ruby])).toEqual({ [opal]: false, [ruby]: true });
  });
});
