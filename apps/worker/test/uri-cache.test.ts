import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedAddress } from '../src/uri/address-policy';
import { resolveCollectionUri, type UriCacheOptions } from '../src/uri/resolve-collection-uri';
import { addr, insertCollection } from './helpers';

let t: TestDatabase;
let db: Db;
let server: Server;
let base: string;
let options: UriCacheOptions;
let next = 1;
let hung = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
  server = createServer((req, res) => {
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    // A gateway that never answers.
    if (req.url?.startsWith('/hang/')) {
      hung += 1;
      return;
    }
    switch (req.url) {
      case '/meta.json':
      case '/ipfs/bafyCID/meta.json':
        return json({ name: 'x', image: `${base}/img.png` });
      case '/img.png':
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(Buffer.alloc(10_000));
      case '/ipfs-image.json':
        return json({ image: 'ipfs://bafyCID/img.png' });
      case '/ipfs/bafyCID/img.png':
        res.writeHead(200, { 'content-type': 'image/webp' });
        return res.end('x');
      case '/r1':
        res.writeHead(302, { location: '/r2' });
        return res.end();
      case '/r2':
        res.writeHead(301, { location: `${base}/meta.json` });
        return res.end();
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        return res.end();
      case '/big':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(`{"image":"${'a'.repeat(5_000)}"}`);
      case '/slow':
        setTimeout(() => json({ image: `${base}/img.png` }), 2_000).unref();
        return;
      case '/bad':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{not json');
      case '/noimage':
        return json({ name: 'no image' });
      case '/private-image.json':
        return json({ image: 'http://10.20.30.40/steal.png' });
      case '/to-private':
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
        return res.end();
      default:
        res.writeHead(404);
        return res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  options = {
    ipfsGateways: [`${base}/ipfs/`],
    arweaveGateway: `${base}/ar/`,
    allowPrivateAddresses: ['127.0.0.1'],
    timeoutMs: 500,
    maxBytes: 2_048,
    maxRedirects: 3,
  };
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.drop();
});

async function collectionWith(uri: string | null): Promise<string> {
  const id = addr(0x5000 + next++);
  await insertCollection(db, id, { uri });
  return id;
}

const resolve = async (uri: string | null, extra: Partial<UriCacheOptions> = {}) =>
  resolveCollectionUri(db, await collectionWith(uri), { ...options, ...extra });

describe('collection URI cache', () => {
  it('reads metadata, takes the image, probes its content type, and caches it', async () => {
    const id = await collectionWith(`${base}/meta.json`);
    const first = await resolveCollectionUri(db, id, options);
    expect(first).toMatchObject({
      status: 'ok',
      imageUrl: `${base}/img.png`,
      contentType: 'image/png',
      fromCache: false,
      error: null,
    });
    const second = await resolveCollectionUri(db, id, options);
    expect(second).toMatchObject({ status: 'ok', fromCache: true });
    const forced = await resolveCollectionUri(db, id, { ...options, force: true });
    expect(forced.fromCache).toBe(false);
    const expired = await resolveCollectionUri(db, id, {
      ...options,
      now: () => new Date(Date.now() + 2 * 86_400_000),
    });
    expect(expired.fromCache).toBe(false);
  });

  it('resolves ipfs:// through the gateway, for metadata and image', async () => {
    expect(await resolve('ipfs://bafyCID/meta.json')).toMatchObject({
      status: 'ok',
      imageUrl: `${base}/img.png`,
    });
    expect(await resolve(`${base}/ipfs-image.json`)).toMatchObject({
      status: 'ok',
      imageUrl: `${base}/ipfs/bafyCID/img.png`,
      contentType: 'image/webp',
    });
  });

  it('reads data: URIs inline', async () => {
    const meta = Buffer.from(JSON.stringify({ image: 'data:image/svg+xml;utf8,<svg/>' })).toString('base64');
    expect(await resolve(`data:application/json;base64,${meta}`)).toMatchObject({
      status: 'ok',
      imageUrl: 'data:image/svg+xml;utf8,<svg/>',
      contentType: 'image/svg+xml',
    });
  });

  it('takes a URI that is itself an image as the image', async () => {
    expect(await resolve(`${base}/img.png`)).toMatchObject({
      status: 'ok',
      imageUrl: `${base}/img.png`,
      contentType: 'image/png',
    });
  });

  it('follows a bounded number of redirects', async () => {
    expect(await resolve(`${base}/r1`)).toMatchObject({ status: 'ok', imageUrl: `${base}/img.png` });
    expect(await resolve(`${base}/loop`)).toMatchObject({ status: 'error', error: 'more than 3 redirects' });
  });

  it('records oversize, slow, bad JSON, missing image and unsupported schemes as errors', async () => {
    expect(await resolve(`${base}/big`)).toMatchObject({
      status: 'error',
      error: 'response larger than 2048 bytes',
    });
    expect(await resolve(`${base}/slow`)).toMatchObject({ status: 'error', error: 'timed out' });
    expect(await resolve(`${base}/bad`)).toMatchObject({ status: 'error', error: 'metadata is not JSON' });
    expect(await resolve(`${base}/noimage`)).toMatchObject({
      status: 'error',
      error: 'metadata has no image',
    });
    expect(await resolve('ftp://example.com/x')).toMatchObject({
      status: 'error',
      error: 'unsupported scheme ftp',
    });
    expect(await resolve(null)).toMatchObject({ status: 'error', error: 'collection has no URI' });
    expect(await resolve(`${base}/missing`)).toMatchObject({
      status: 'error',
      error: expect.stringContaining('HTTP 404'),
    });
  });

  it('refuses private, loopback and link-local addresses after DNS resolution', async () => {
    const strict = { allowPrivateAddresses: [] };
    expect(await resolve(`${base}/meta.json`, strict)).toMatchObject({
      status: 'error',
      error: 'refused: private address',
    });
    const viaName = `http://localhost:${new URL(base).port}/meta.json`;
    // The DNS answer for the name is not echoed back.
    expect(await resolve(viaName, strict)).toMatchObject({
      status: 'error',
      error: 'refused: private address',
    });
    expect(await resolve(`${base}/to-private`)).toMatchObject({
      status: 'error',
      error: 'refused: private address',
    });
    for (const ip of [
      '10.1.2.3',
      '192.168.1.1',
      '172.20.0.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ]) {
      expect(isAllowedAddress(ip), ip).toBe(false);
    }
    expect(isAllowedAddress('1.1.1.1')).toBe(true);
    expect(isAllowedAddress('2606:4700::1111')).toBe(true);
  });

  it('fetches a trusted origin although it is private, that origin only, and not where it redirects', async () => {
    const trusted = { allowPrivateAddresses: [], trustedOrigins: [base] };
    expect(await resolve(`${base}/meta.json`, trusted)).toMatchObject({
      status: 'ok',
      imageUrl: `${base}/img.png`,
    });
    // The same host on another port, or by another name, is another origin.
    const otherPort = `http://127.0.0.1:${Number(new URL(base).port) + 1}/meta.json`;
    expect(await resolve(otherPort, trusted)).toMatchObject({
      status: 'error',
      error: 'refused: private address',
    });
    const viaName = `http://localhost:${new URL(base).port}/meta.json`;
    expect(await resolve(viaName, trusted)).toMatchObject({
      status: 'error',
      error: 'refused: private address',
    });
    expect(await resolve(`${base}/to-private`, trusted)).toMatchObject({
      status: 'error',
      error: 'refused: private address',
    });
  });

  it('refuses a metadata image at a private address instead of storing it as ok', async () => {
    expect(await resolve(`${base}/private-image.json`)).toMatchObject({
      status: 'error',
      imageUrl: null,
      error: 'image: refused: private address',
    });
  });

  it('gives one deadline to a whole resolution across gateways', async () => {
    const hanging = [`${base}/hang/a/`, `${base}/hang/b/`, `${base}/hang/c/`];
    hung = 0;
    const result = await resolve('ipfs://bafyCID/meta.json', {
      ipfsGateways: hanging,
      timeoutMs: 1_000,
    });
    expect(result).toMatchObject({ status: 'error', error: expect.stringContaining('timed out') });
    // The first gateway used up the deadline: the others were never asked.
    expect(hung).toBe(1);
  });

  it('counts consecutive failures and backs off the retry', async () => {
    const id = await collectionWith(`${base}/bad`);
    const now = new Date('2026-11-20T00:00:00Z');
    const first = await resolveCollectionUri(db, id, { ...options, now: () => now, errorRetryMs: 60_000 });
    expect(first.attempts).toBe(1);
    expect(first.expiresAt?.getTime()).toBe(now.getTime() + 60_000);
    const later = new Date(now.getTime() + 61_000);
    const second = await resolveCollectionUri(db, id, { ...options, now: () => later, errorRetryMs: 60_000 });
    expect(second.attempts).toBe(2);
    expect(second.expiresAt?.getTime()).toBe(later.getTime() + 120_000);
  });

  it('answers for an unknown collection without storing anything', async () => {
    const result = await resolveCollectionUri(db, addr(0xdead), options);
    expect(result).toMatchObject({ found: false, status: 'error' });
  });
});
