/** Requests by HTTP status (0: no answer at all, the connection failed). */
type StatusCounts = Record<string, number>;

export interface Load {
  counts: StatusCounts;
  /** Stops the loops and waits for the requests in flight. */
  stop(): Promise<StatusCounts>;
}

/** `concurrency` loops requesting `urls` in turn, as fast as the API answers, counting statuses. */
export function startLoad(urls: string[], headers: Record<string, string>, concurrency = 4): Load {
  const counts: StatusCounts = {};
  let running = true;
  const loop = async (offset: number) => {
    for (let i = offset; running; i++) {
      const url = urls[i % urls.length] as string;
      let status = 0;
      try {
        const res = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = 0;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      counts[status] = (counts[status] ?? 0) + 1;
    }
  };
  const loops = Array.from({ length: concurrency }, (_, i) => loop(i));
  return {
    counts,
    async stop() {
      running = false;
      await Promise.all(loops);
      return counts;
    },
  };
}
