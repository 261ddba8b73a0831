import { createApiKey } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type LogLevel, type LogLine, recordingLogger } from '@mdq/log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

describe('request logging', () => {
  let test: TestDatabase;
  // A database without tables: every read of it fails, as a broken read path would.
  let empty: TestDatabase;
  let key: string;

  beforeAll(async () => {
    test = await createTestDatabase();
    empty = await createTestDatabase({ migrate: false });
    key = (await createApiKey(test.db, { name: 'logging' })).key;
  });
  afterAll(async () => {
    await empty?.drop();
    await test?.drop();
  });

  /** The lines an API logging at `level` writes for one request to `url`. */
  async function linesOf(level: LogLevel, url: string): Promise<{ status: number; lines: LogLine[] }> {
    const lines: LogLine[] = [];
    const logger = recordingLogger((line) => lines.push(line)).child({ component: 'api' }, { level });
    const app = await buildApp({ db: test.db, readDb: empty.db, network: 'local', logger });
    try {
      const response = await app.inject({ url, headers: { 'x-api-key': key } });
      return { status: response.statusCode, lines };
    } finally {
      await app.close();
    }
  }

  it('writes each request at info, with its id, method and URL and never its headers', async () => {
    const { status, lines } = await linesOf('info', '/local/api/whoami');
    expect(status).toBe(200);
    const [incoming, completed] = lines.filter(
      (l) => l.msg === 'incoming request' || l.msg === 'request completed',
    );
    expect(incoming).toMatchObject({ component: 'api', req: { method: 'GET', url: '/local/api/whoami' } });
    expect(completed).toMatchObject({ component: 'api', res: { statusCode: 200 } });
    expect(completed?.['reqId']).toBe(incoming?.['reqId']);
    expect(JSON.stringify(lines)).not.toContain(key);
  });

  it('writes no request lines above info, and still the error of a failing request', async () => {
    expect((await linesOf('warn', '/local/api/whoami')).lines).toEqual([]);
    const failing = await linesOf('warn', '/local/api/rankings/trending-collections');
    expect(failing.status).toBe(500);
    expect(failing.lines).toEqual([
      expect.objectContaining({ level: 'error', component: 'api', msg: 'unhandled error', count: 1 }),
    ]);
  });
});
