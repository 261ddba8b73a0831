import { Aptos, AptosConfig, Network } from '@aptos-labs/ts-sdk';
import { createApiKey } from '@mdq/db';
import { createIndexedDatabase, type IndexedDatabase } from '@mdq/indexer/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

/*
 * The ts-sdk's wallet methods through /v1/graphql agree with the REST API on an indexed devnet
 * chain: the same tokens held, with the same names, URIs, collections and amounts, and the same count.
 */
describe('the ts-sdk on a devnet chain agrees with the REST API', () => {
  let indexed: IndexedDatabase;
  let app: FastifyInstance;
  let key: string;
  let aptos: Aptos;

  beforeAll(async () => {
    indexed = await createIndexedDatabase({ seed: 36, preset: 'tiny', endTimeMs: Date.now() });
    app = await buildApp({ db: indexed.db, network: 'local' });
    key = (await createApiKey(indexed.db, { name: 'devnet-sdk' })).key;
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    aptos = new Aptos(
      new AptosConfig({
        network: Network.CUSTOM,
        fullnode: 'http://127.0.0.1:9/v1',
        indexer: `${base}/local/v1/graphql`,
        clientConfig: { API_KEY: key },
      }),
    );
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await indexed?.close();
  });

  interface Balance {
    tokenId: string;
    tokenName: string | null;
    collectionId: string | null;
    tokenUri: string | null;
    amount: string;
    listed: boolean;
  }

  const balances = async (address: string): Promise<Balance[]> => {
    const rows: Balance[] = [];
    for (let page = 1; ; page += 1) {
      const res = await app.inject({
        url: `/local/api/token-balances?address=${address}&greaterThanZeroBalance=true&limit=100&page=${page}`,
        headers: { 'x-api-key': key },
      });
      const body = res.json() as { data: Balance[]; pagination: { hasMore: boolean } };
      rows.push(...body.data);
      if (!body.pagination.hasMore) return rows;
    }
  };

  it('getAccountOwnedTokens, getOwnedDigitalAssets and getAccountTokensCount answer what token-balances does', async () => {
    const users = indexed.facts.users;
    expect(users.length).toBeGreaterThan(0);
    let compared = 0;
    for (const user of users) {
      // A listed token sits with its listing (escrow or listing object): REST shows it in the
      // seller's balances, the Indexer API's ownership rows under its holder as the chain has it.
      // A listing that leaves the token in the wallet is held there on chain too: such tokens are
      // set aside on both sides (REST marks every listed token; the chain knows only the holder).
      const all = await balances(user.address);
      const listed = new Set(all.filter((b) => b.listed).map((b) => b.tokenId));
      const rest = all.filter((b) => !b.listed);
      const sdk = await aptos.getAccountOwnedTokens({
        accountAddress: user.address,
        options: { limit: 1000 },
      });
      const view = (rows: typeof sdk) =>
        rows
          .filter((o) => !listed.has(o.token_data_id))
          .map((o) => ({
            tokenId: o.token_data_id,
            tokenName: o.current_token_data?.token_name ?? null,
            collectionId: o.current_token_data?.collection_id ?? null,
            tokenUri: o.current_token_data?.token_uri ?? null,
            amount: String(o.amount),
          }))
          .sort((a, b) => a.tokenId.localeCompare(b.tokenId));
      const fromRest = rest
        .map((b) => ({
          tokenId: b.tokenId,
          tokenName: b.tokenName,
          collectionId: b.collectionId,
          tokenUri: b.tokenUri ?? '',
          amount: b.amount,
        }))
        .sort((a, b) => a.tokenId.localeCompare(b.tokenId));
      expect(view(sdk), user.address).toEqual(fromRest);
      const owned = await aptos.getOwnedDigitalAssets({
        ownerAddress: user.address,
        options: { limit: 1000 },
      });
      expect(
        owned
          .map((o) => o.token_data_id)
          .filter((id) => !listed.has(id))
          .sort(),
        user.address,
      ).toEqual(fromRest.map((b) => b.tokenId));
      // The count is every row the chain has under the wallet: the unlisted ones REST shows, plus
      // the listed ones still held there.
      const listedHeld = sdk.filter((o) => listed.has(o.token_data_id)).length;
      expect(await aptos.getAccountTokensCount({ accountAddress: user.address }), user.address).toBe(
        rest.length + listedHeld,
      );
      compared += rest.length;
    }
    expect(compared).toBeGreaterThan(10);
  });
});
