import { ScrapedGauges, counter, gauge, metricsRegistry, scrapeMetrics } from './metrics';
import { startMetricsServer } from './metrics-server';
import { trackConnectionPool } from './pool-metrics';

const series = async (name: string) =>
  (await metricsRegistry.metrics())
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

describe('the process registry', () => {
  it('returns the registered metric for a name that comes again, and refuses another type', () => {
    const a = counter({ name: 'test_things_total', help: 'x', labelNames: ['kind'] });
    expect(counter({ name: 'test_things_total', help: 'x', labelNames: ['kind'] })).toBe(a);
    expect(() => gauge({ name: 'test_things_total', help: 'x' })).toThrow(/already registered as a counter/);
  });

  it("serves Node's own metrics next to the platform's", async () => {
    const { contentType, body } = await scrapeMetrics();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toContain('process_resident_memory_bytes');
    expect(body).toContain('nodejs_eventloop_lag_seconds');
  });
});

describe('ScrapedGauges', () => {
  it('reads each source once per scrape for all its gauges, drops closed sources, skips failing ones', async () => {
    let reads = 0;
    let failing = false;
    const gauges = new ScrapedGauges<{ id: string; open: boolean }, 'a' | 'b', 'id'>(
      { a: { name: 'test_scraped_a', help: 'a' }, b: { name: 'test_scraped_b', help: 'b' } },
      ['id'],
      (s) => {
        reads++;
        if (!s.open) return undefined;
        if (failing) throw new Error('database away');
        return { a: [{ labels: { id: s.id }, value: 1 }], b: [{ labels: { id: s.id }, value: 2 }] };
      },
    );
    const one = { id: 'one', open: true };
    const two = { id: 'two', open: true };
    gauges.add(one);
    const removeTwo = gauges.add(two);
    expect(await series('test_scraped_a')).toEqual([
      'test_scraped_a{id="one"} 1',
      'test_scraped_a{id="two"} 1',
    ]);
    expect(await series('test_scraped_b')).toEqual([
      'test_scraped_b{id="one"} 2',
      'test_scraped_b{id="two"} 2',
    ]);
    // Two scrapes above, two sources: each source read once per scrape, not once per gauge.
    await metricsRegistry.metrics();
    expect(reads).toBe(6);

    two.open = false;
    expect(await series('test_scraped_a')).toEqual(['test_scraped_a{id="one"} 1']);
    two.open = true;
    expect(await series('test_scraped_a')).toEqual(['test_scraped_a{id="one"} 1']);

    failing = true;
    expect(await series('test_scraped_a')).toEqual([]);
    failing = false;
    expect(await series('test_scraped_a')).toEqual(['test_scraped_a{id="one"} 1']);
    removeTwo();
  });
});

describe('trackConnectionPool', () => {
  it('reports the counts of a pool until it is closed', async () => {
    let pool:
      { totalCount: number; idleCount: number; waitingCount: number; options: { max: number } } | undefined =
      { totalCount: 4, idleCount: 1, waitingCount: 2, options: { max: 10 } };
    trackConnectionPool('unit', () => pool);
    expect(await series('db_pool_connections')).toContain('db_pool_connections{pool="unit"} 4');
    expect(await series('db_pool_idle_connections')).toContain('db_pool_idle_connections{pool="unit"} 1');
    expect(await series('db_pool_waiting_clients')).toContain('db_pool_waiting_clients{pool="unit"} 2');
    expect(await series('db_pool_max_connections')).toContain('db_pool_max_connections{pool="unit"} 10');
    pool = undefined;
    expect(await series('db_pool_connections')).toEqual([]);
  });
});

describe('startMetricsServer', () => {
  it('answers GET /metrics and nothing else', async () => {
    const server = await startMetricsServer(0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await res.text()).toContain('process_cpu_seconds_total');
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
