import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FeedEvent } from '@mdq/db/feed';

/**
 * A webhook receiver as a customer would write one: checks the signature by hand (HMAC-SHA256 of
 * "<timestamp>.<body>"), answers 503 while `failing`, and keeps what it acknowledged.
 */
export class WebhookReceiver {
  failing = false;
  readonly acknowledged: FeedEvent[] = [];
  refused = 0;
  badSignatures = 0;
  secret = '';
  private server: http.Server | null = null;

  async start(): Promise<string> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const timestamp = String(req.headers['x-mdq-timestamp'] ?? '');
        const expected = `v1=${createHmac('sha256', this.secret).update(`${timestamp}.${body}`).digest('hex')}`;
        if (req.headers['x-mdq-signature'] !== expected) {
          this.badSignatures++;
          res.writeHead(401).end();
          return;
        }
        if (this.failing) {
          this.refused++;
          res.writeHead(503).end();
          return;
        }
        const event = JSON.parse(body) as FeedEvent;
        if (req.headers['x-mdq-event-id'] !== event.id) this.badSignatures++;
        this.acknowledged.push(event);
        res.writeHead(204).end();
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
