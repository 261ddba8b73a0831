import { createHmac, timingSafeEqual } from 'node:crypto';

/** Headers every webhook delivery carries. */
export const WEBHOOK_HEADERS = {
  signature: 'x-mdq-signature',
  timestamp: 'x-mdq-timestamp',
  eventId: 'x-mdq-event-id',
} as const;

/**
 * `v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`: the timestamp is inside the signed text
 * so a captured delivery cannot be replayed later with a fresh timestamp.
 */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The receiver's check (documented in docs/API.md); `toleranceSecs` bounds replays. */
export function verifyWebhook(
  secret: string,
  headers: { signature: string; timestamp: string },
  body: string,
  nowSecs = Math.floor(Date.now() / 1000),
  toleranceSecs = 300,
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(nowSecs - timestamp) > toleranceSecs) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(headers.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
