import type { Pool } from 'pg';
import { metricsRegistry } from '@platform/observability';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhookSecretBox } from './webhook-secret-box';
import { WEBHOOK_OUTCOMES } from './webhook-metrics';

/** The exposition's lines of one metric and schema, as Prometheus scrapes them. */
async function series(metric: string, schema: string): Promise<string[]> {
  return (await metricsRegistry.metrics())
    .split('\n')
    .filter((l) => l.startsWith(`${metric}{`) && l.includes(`schema="${schema}"`))
    .sort();
}

describe('webhook metrics', () => {
  it('has every outcome series of a schema at 0 once its worker exists, before any delivery', async () => {
    // A schema no other test uses: the registry is the process's.
    const schema = 'metrics_init_probe';
    expect(await series('webhook_deliveries_total', schema)).toEqual([]);

    const pool = { query: jest.fn() } as unknown as Pool;
    new WebhookDeliveryWorker(pool, schema, {
      owner: 'test',
      secretBox: new WebhookSecretBox('k'.repeat(40)),
    });

    // The alert on increase(webhook_deliveries_total{outcome="dead"}[15m]) sees the first dead delivery
    // of a pod as 0 -> 1; a series born at 1 would show no increase (scripts/prometheus-rules.test.yaml).
    expect(await series('webhook_deliveries_total', schema)).toEqual(
      [...WEBHOOK_OUTCOMES]
        .sort()
        .map((outcome) => `webhook_deliveries_total{schema="${schema}",outcome="${outcome}"} 0`),
    );
    expect(await series('webhook_lost_leases_total', schema)).toEqual([
      `webhook_lost_leases_total{schema="${schema}"} 0`,
    ]);
    expect(pool.query).not.toHaveBeenCalled();
  });
});
