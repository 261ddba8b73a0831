import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

describe('mdq keys and migrate on DATABASE_URL', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase({ migrate: false });
  });
  afterAll(() => test.drop());

  it('migrates, creates, lists and revokes keys', async () => {
    const env = { DATABASE_URL: test.url };
    expect((await runCli(['migrate'], env)).stdout).toContain('database migrated (DATABASE_URL)');

    const created = await runCli(['keys', 'create', '--name', 'front-end', '--rate-limit', '60'], env);
    expect(created.code).toBe(0);
    const keyId = /key id: (\w+)/.exec(created.stdout)?.[1];
    expect(created.stdout).toMatch(/api key: mdq_\w{8}_/);

    const listed = await runCli(['keys', 'list'], env);
    expect(listed.stdout).toContain(`${keyId}\tfront-end\tsecret\t60/min\tactive`);
    expect(listed.stdout).not.toMatch(/mdq_\w{8}_/);

    expect((await runCli(['keys', 'revoke', keyId as string], env)).code).toBe(0);
    expect((await runCli(['keys', 'list'], env)).stdout).toMatch(
      new RegExp(`${keyId}\\tfront-end\\tsecret\\t60/min\\trevoked`),
    );
    const again = await runCli(['keys', 'revoke', keyId as string], env);
    expect(again.code).toBe(2);
    expect(again.stderr.trim()).toBe(`mdq: no active key with id "${keyId}"`);
  });

  it('creates a publishable key for listed origins and lists it as such', async () => {
    const env = { DATABASE_URL: test.url };
    const created = await runCli(
      [
        'keys',
        'create',
        '--publishable',
        '--name',
        'market',
        '--origin',
        'https://Market.example',
        'https://*.market.example',
      ],
      env,
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(
      /publishable key \(origins https:\/\/market\.example, https:\/\/\*\.market\.example\): mdq_pk_\w{8}_/,
    );
    const keyId = /key id: (\w+)/.exec(created.stdout)?.[1];
    expect((await runCli(['keys', 'list'], env)).stdout).toContain(
      `${keyId}\tmarket\tpublishable\tdefault/min\tactive\thttps://market.example,https://*.market.example`,
    );

    const without = await runCli(['keys', 'create', '--publishable'], env);
    expect([without.code, without.stderr.trim()]).toEqual([
      2,
      'mdq: a publishable key needs at least one --origin (the page that may use it)',
    ]);
    const bad = await runCli(['keys', 'create', '--publishable', '--origin', 'market.example'], env);
    expect([bad.code, bad.stderr.trim()]).toEqual([
      2,
      'mdq: --origin "market.example" is not an origin: scheme://host[:port] with no path, or https://*.domain',
    ]);
    const secret = await runCli(['keys', 'create', '--origin', 'https://market.example'], env);
    expect([secret.code, secret.stderr.trim()]).toEqual([
      2,
      'mdq: --origin is for publishable keys: add --publishable',
    ]);
  });
});
