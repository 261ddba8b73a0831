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
    expect(listed.stdout).toContain(`${keyId}\tfront-end\t60/min\tactive`);
    expect(listed.stdout).not.toMatch(/mdq_\w{8}_/);

    expect((await runCli(['keys', 'revoke', keyId as string], env)).code).toBe(0);
    expect((await runCli(['keys', 'list'], env)).stdout).toMatch(
      new RegExp(`${keyId}\\tfront-end\\t60/min\\trevoked`),
    );
    const again = await runCli(['keys', 'revoke', keyId as string], env);
    expect(again.code).toBe(2);
    expect(again.stderr.trim()).toBe(`mdq: no active key with id "${keyId}"`);
  });
});
