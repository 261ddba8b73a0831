import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Aptos, AptosConfig, Network } from '@aptos-labs/ts-sdk';

/** The entities a body is asked about, sampled from the bench's chain. */
export interface SdkSamples {
  wallets: readonly string[];
  tokenIds: readonly string[];
  collections: readonly { creator: string; name: string }[];
}

/** One of the SDK's indexer methods, and the GraphQL request bodies it sends for the samples. */
export interface SdkQuery {
  method: string;
  bodies: string[];
}

/**
 * The request bodies `@aptos-labs/ts-sdk` itself sends to an Indexer API for its five most used NFT
 * methods, recorded by pointing the SDK at a local server that keeps each body (and answers an
 * empty result, so the SDK's own parsing may fail: only the request matters). The bench then sends
 * exactly these documents and variables to mdq's `/v1/graphql`: what a dApp's SDK sends, not a
 * hand-written approximation of it.
 */
export async function recordSdkBodies(samples: SdkSamples, perMethod: number): Promise<SdkQuery[]> {
  const recorded: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      recorded.push(Buffer.concat(chunks).toString());
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":{}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const aptos = new Aptos(
    new AptosConfig({
      network: Network.CUSTOM,
      fullnode: 'http://127.0.0.1:9/v1',
      indexer: `http://127.0.0.1:${port}/v1/graphql`,
    }),
  );
  const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length] as T;
  const methods: [string, (i: number) => Promise<unknown>][] = [
    [
      'getAccountOwnedTokens',
      (i) => aptos.getAccountOwnedTokens({ accountAddress: pick(samples.wallets, i) }),
    ],
    [
      'getDigitalAssetData',
      (i) => aptos.getDigitalAssetData({ digitalAssetAddress: pick(samples.tokenIds, i) }),
    ],
    [
      'getCollectionData',
      (i) =>
        aptos.getCollectionData({
          creatorAddress: pick(samples.collections, i).creator,
          collectionName: pick(samples.collections, i).name,
        }),
    ],
    [
      'getDigitalAssetActivity',
      (i) => aptos.getDigitalAssetActivity({ digitalAssetAddress: pick(samples.tokenIds, i * 7) }),
    ],
    [
      'getAccountTokensCount',
      (i) => aptos.getAccountTokensCount({ accountAddress: pick(samples.wallets, i * 3) }),
    ],
  ];
  const out: SdkQuery[] = [];
  try {
    for (const [method, call] of methods) {
      const bodies: string[] = [];
      for (let i = 0; i < perMethod; i++) {
        const before = recorded.length;
        await call(i).catch(() => undefined);
        const body = recorded.slice(before).at(-1);
        if (body === undefined) throw new Error(`${method} sent no request to the indexer`);
        bodies.push(body);
      }
      out.push({ method, bodies });
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return out;
}
