import type { FeedEvent } from '@mdq/db/feed';
import WebSocket from 'ws';

/** What a consumer received, in arrival order, across all its connections. */
export interface Received {
  events: FeedEvent[];
  lastId(): string | undefined;
}

function received(): Received {
  const events: FeedEvent[] = [];
  return { events, lastId: () => events.at(-1)?.id };
}

/**
 * A Node SSE consumer as a client would write one: fetch + a line parser, resuming with
 * Last-Event-ID. disconnect() drops the connection abruptly (AbortController).
 */
export class SseConsumer {
  readonly got = received();
  private abort: AbortController | null = null;
  private reading: Promise<void> | null = null;
  private gate: Promise<void> | null = null;
  private openGate: (() => void) | null = null;
  connections = 0;

  /** Stops reading the socket: the server's writes back up as for a client that cannot keep up. */
  pause(): void {
    this.gate ??= new Promise((resolve) => {
      this.openGate = resolve;
    });
  }

  resume(): void {
    this.openGate?.();
    this.gate = null;
    this.openGate = null;
  }

  constructor(
    private readonly key: string,
    private readonly query = '',
  ) {}

  async connect(base: string, first: { since?: string } = {}): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    const last = this.got.lastId();
    const since = first.since ? `since=${first.since}&` : '';
    const res = await fetch(`${base}/events/stream?${since}${this.query}`, {
      headers: { 'x-api-key': this.key, ...(last ? { 'last-event-id': last } : {}) },
      signal: abort.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`SSE connect: ${res.status} ${await res.text()}`);
    this.connections++;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    this.reading = (async () => {
      let buffer = '';
      try {
        for (;;) {
          if (this.gate) await this.gate;
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (data) this.got.events.push(JSON.parse(data) as FeedEvent);
            end = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // Aborted or the server went away: the test reconnects.
      }
    })();
  }

  async disconnect(): Promise<void> {
    this.abort?.abort();
    await this.reading;
  }

  /** Resolves when the server ended the stream (e.g. an API restart). */
  ended(): Promise<void> {
    return this.reading ?? Promise.resolve();
  }
}

/** A WebSocket consumer resuming with ?since=<last id>. */
export class WsConsumer {
  readonly got = received();
  private socket: WebSocket | null = null;
  private closed: Promise<void> = Promise.resolve();
  connections = 0;

  constructor(
    private readonly key: string,
    private readonly query = '',
  ) {}

  async connect(base: string, first: { since?: string } = {}): Promise<void> {
    const since = this.got.lastId() ?? first.since;
    const url = `${base.replace(/^http/, 'ws')}/events/ws?${since ? `since=${since}&` : ''}${this.query}`;
    const socket = new WebSocket(url, { headers: { 'x-api-key': this.key } });
    this.socket = socket;
    socket.on('message', (data) => {
      this.got.events.push(JSON.parse(String(data)) as FeedEvent);
    });
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_req, res) => reject(new Error(`WS upgrade: ${res.statusCode}`)));
    });
    this.connections++;
  }

  /** Drops the TCP connection without a close handshake. */
  async disconnect(): Promise<void> {
    this.socket?.terminate();
    await this.closed;
  }

  ended(): Promise<void> {
    return this.closed;
  }
}

/** Polls until `check` holds; throws with `what` after the deadline. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
