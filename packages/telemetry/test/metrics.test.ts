import { describe, expect, it } from 'vitest';
import { registry, reportQueues, serveMetrics, trackPool } from '../src/index';

describe('the metrics registry', () => {
  it('reports pools until they end, and queue depth by state', async () => {
    const pool = { totalCount: 3, idleCount: 2, waitingCount: 1, ended: false };
    trackPool('probe', pool);
    reportQueues(async () => ({ 'collection-changed': { waiting: 4, failed: 1 } }));
    let text = await registry.metrics();
    expect(text).toContain('mdq_db_pool_connections{pool="probe",state="total"} 3');
    expect(text).toContain('mdq_db_pool_connections{pool="probe",state="waiting"} 1');
    expect(text).toContain('mdq_queue_jobs{queue="collection-changed",state="waiting"} 4');
    pool.ended = true;
    reportQueues(null);
    text = await registry.metrics();
    expect(text).not.toContain('pool="probe"');
    expect(text).not.toContain('mdq_queue_jobs{');
  });

  it('gives the name of a closing pool to the pool that replaces it', async () => {
    const closing = { totalCount: 1, idleCount: 0, waitingCount: 0, ending: false, ended: false };
    trackPool('replaced', closing);
    // end() was called, but a client is still out: pg sets `ending` now and `ended` only later.
    closing.ending = true;
    trackPool('replaced', { totalCount: 5, idleCount: 5, waitingCount: 0 });
    const text = await registry.metrics();
    expect(text).toContain('mdq_db_pool_connections{pool="replaced",state="total"} 5');
    expect(text).not.toContain('pool="replaced#2"');
  });

  it('serves /metrics on a listener of its own and nothing else', async () => {
    const server = await serveMetrics(0);
    try {
      const res = await fetch(server.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      expect(await res.text()).toContain('# TYPE mdq_http_requests_total counter');
      expect((await fetch(server.url.replace('/metrics', '/other'))).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
