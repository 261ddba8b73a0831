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
