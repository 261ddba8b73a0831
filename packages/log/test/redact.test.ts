import { describe, expect, it } from 'vitest';
import { type LogLine, recordingLogger, redactSecrets, redactUrl, registerSecret } from '../src/index';

describe('credential redaction', () => {
  it('cuts credential query parameters from a URL and keeps the rest', () => {
    expect(redactUrl('/local/api/events/stream?apiKey=abc123&kinds=listing_sold')).toBe(
      '/local/api/events/stream?apiKey=[redacted]&kinds=listing_sold',
    );
    expect(redactUrl('/x?tokenId=0x1&API_KEY=s&access_token=t&key=k')).toBe(
      '/x?tokenId=0x1&API_KEY=[redacted]&access_token=[redacted]&key=[redacted]',
    );
  });

  it('cuts mdq keys (keeping their id), webhook secrets, bearer credentials and registered secrets', () => {
    const key = 'mdq_1a2b3c4d_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-xy';
    const pk = 'mdq_pk_0f0e0d0c_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    registerSecret('operator-chosen "admin" key');
    const text = redactSecrets(
      JSON.stringify({
        msg: `key ${key} and ${pk}`,
        secret: 'whsec_abcdefghijklmnopqrstuvwxyz',
        auth: 'Bearer eyJhbGciOiJIUzI1NiJ9.x',
        admin: 'operator-chosen "admin" key',
      }),
    );
    expect(text).toContain('mdq_1a2b3c4d_[redacted]');
    expect(text).toContain('mdq_pk_0f0e0d0c_[redacted]');
    for (const secret of [
      key,
      pk,
      'whsec_abcdefghijklmnopqrstuvwxyz',
      'eyJhbGciOiJIUzI1NiJ9',
      'admin\\" key',
    ])
      expect(text).not.toContain(secret);
  });

  it('keeps credentials out of every line the logger writes, in fields, headers and messages', () => {
    const lines: LogLine[] = [];
    const log = recordingLogger((line) => lines.push(line));
    const key = 'mdq_99aa88bb_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ';
    log.info({ headers: { 'x-api-key': 'plain-operator-key', authorization: 'Basic dXNlcjpwYXNz' } }, 'h');
    log.info({ req: { headers: { 'x-admin-key': 'admin-admin-admin' } }, apiKey: 'anything' }, `got ${key}`);
    log.warn({ url: '/s?apiKey=zzz' }, 'w');
    const text = JSON.stringify(lines);
    for (const secret of [
      'plain-operator-key',
      'dXNlcjpwYXNz',
      'admin-admin-admin',
      'anything',
      'ZZZZZZZZ',
      'zzz',
    ])
      expect(text).not.toContain(secret);
    expect(lines[1]?.msg).toBe('got mdq_99aa88bb_[redacted]');
  });
});
