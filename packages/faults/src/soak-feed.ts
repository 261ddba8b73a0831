import { Agent, type ClientRequest, request } from 'node:http';

/**
 * The soak's live-feed clients: `count` Server-Sent Events streams on the API's
 * `GET <api>/events/stream`, held open for the whole run the way a marketplace's pages hold them.
 * Each client counts the events it reads and, when its stream ends, fails or is refused, connects
 * again after the feed's `retry:` (or a 503's / 429's `retry-after`), resuming with
 * `Last-Event-ID` as EventSource does. One `node:http` request per stream in this process, no
 * parsing beyond the SSE fields: a hundred streams cost the soak's own process little.
 */

export interface FeedReading {
  /** Streams open at the reading (a 200 received, not ended since). */
  connected: number;
  /** Events (SSE blocks with data) received in the interval, over every client. */
  events: number;
  /** Connection attempts after the first in the interval: a stream that ended or failed, or a refusal (503, 429) retried. */
  reconnects: number;
}

export interface FeedSummary {
  clients: number;
  /** Streams open when `stop()` was called. */
  connectedAtStop: number;
  /** Clients whose request and socket had closed when `stop()` returned: all of them is a clean close. */
  closed: number;
  /** Per client, over the whole run. */
  perClient: { events: number; reconnects: number }[];
}

export interface FeedClients {
  /** The reading since the previous call. */
  take(): FeedReading;
  /** Closes every stream and waits (at most `CLOSE_WAIT_MS`) until each client's socket has closed. */
  stop(): Promise<FeedSummary>;
}

/** The pause before a reconnect until the feed says otherwise (its `retry: 1000`). */
const DEFAULT_RETRY_MS = 1000;
/**
 * A stream silent this long is taken for dead and opened again: the API writes a `: ping` comment
 * every 15 s (MDQ_FEED_HEARTBEAT_MS) even when the chain is idle.
 */
const IDLE_TIMEOUT_MS = 60_000;
const CLOSE_WAIT_MS = 10_000;

interface Client {
  events: number;
  reconnects: number;
  open: boolean;
  lastEventId: string | null;
  retryMs: number;
  request: ClientRequest | null;
  /** Resolves when the client's loop has ended (its last request closed). */
  done: Promise<void>;
}

export function startFeedClients(url: string, headers: Record<string, string>, count: number): FeedClients {
  // A private agent without keep-alive: each stream is its own socket, and stop() can destroy
  // whatever is left without touching the read load's connections.
  const agent = new Agent({ keepAlive: false });
  let stopping = false;
  // The clients waiting to reconnect: stop() wakes them (one listener each on a shared AbortSignal
  // would pass Node's limit of ten as soon as a crowd of them is refused at once).
  const sleepers = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });
  let interval = { events: 0, reconnects: 0 };

  /** One stream, from the request to its end; resolves with the pause before the next attempt. */
  const stream = (client: Client): Promise<number> =>
    new Promise<number>((resolve) => {
      let settled = false;
      // Set by a refusal; otherwise the feed's own retry delay as it stands when the stream ends.
      let refusedWaitMs: number | null = null;
      const settle = () => {
        client.open = false;
        if (settled) return;
        settled = true;
        client.request = null;
        resolve(refusedWaitMs ?? client.retryMs);
      };
      const req = request(url, {
        agent,
        headers: {
          ...headers,
          accept: 'text/event-stream',
          ...(client.lastEventId ? { 'last-event-id': client.lastEventId } : {}),
        },
      });
      client.request = req;
      req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy());
      // An error (refused connection, reset, time-out) is always followed by 'close': the attempt
      // ends there.
      req.on('error', () => undefined);
      req.on('close', settle);
      req.on('response', (res) => {
        if (res.statusCode !== 200) {
          // Refused (a 503 when the API sheds load, a 429 past the per-key stream limit): come
          // back when it says.
          const after = Number(res.headers['retry-after']);
          refusedWaitMs = Number.isFinite(after) && after > 0 ? after * 1000 : client.retryMs;
          res.resume();
          res.on('error', () => undefined);
          res.on('close', settle);
          return;
        }
        client.open = true;
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          // The API ends lines with \n; a block ends with an empty line.
          let start = 0;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n', start)) {
            if (readBlock(client, buffer.slice(start, end))) {
              client.events++;
              interval.events++;
            }
            start = end + 2;
          }
          buffer = buffer.slice(start);
        });
        res.on('error', () => undefined);
        res.on('close', settle);
      });
      req.end();
    });

  const run = async (client: Client) => {
    for (;;) {
      const waitMs = await stream(client);
      if (stopping) return;
      client.reconnects++;
      interval.reconnects++;
      await pause(waitMs);
      if (stopping) return;
    }
  };

  const clients: Client[] = Array.from({ length: count }, () => {
    const client: Client = {
      events: 0,
      reconnects: 0,
      open: false,
      lastEventId: null,
      retryMs: DEFAULT_RETRY_MS,
      request: null,
      done: Promise.resolve(),
    };
    client.done = run(client);
    return client;
  });
  const connected = () => clients.filter((c) => c.open).length;

  return {
    take() {
      const reading = { connected: connected(), ...interval };
      interval = { events: 0, reconnects: 0 };
      return reading;
    },
    async stop() {
      const connectedAtStop = connected();
      stopping = true;
      for (const wake of [...sleepers]) wake();
      for (const client of clients) client.request?.destroy();
      let closed = 0;
      const waited = clients.map((c) => c.done.then(() => closed++));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(waited),
        new Promise((resolve) => {
          timer = setTimeout(resolve, CLOSE_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
      agent.destroy();
      return {
        clients: count,
        connectedAtStop,
        closed,
        perClient: clients.map((c) => ({ events: c.events, reconnects: c.reconnects })),
      };
    },
  };
}

/**
 * One SSE block's fields (`id`, `retry`, `data`; comments such as the heartbeat's `: ping` and
 * other fields ignored): keeps the last event id and the retry delay; true when it is an event.
 */
function readBlock(client: Client, block: string): boolean {
  let data = false;
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon === 0) continue;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(line[colon + 1] === ' ' ? colon + 2 : colon + 1);
    if (field === 'data') data = true;
    else if (field === 'id' && !value.includes('\0')) client.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) client.retryMs = Number(value);
  }
  return data;
}
