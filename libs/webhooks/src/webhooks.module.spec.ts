import { Test } from '@nestjs/testing';
import type { Pool } from 'pg';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhookSubscriptions } from './webhook-subscriptions.service';
import { STRICT_TARGET_POLICY } from '@platform/network';
import { WebhooksModule } from './webhooks.module';

describe('WebhooksModule', () => {
  it('provides the plain classes and starts/stops the worker with the app', async () => {
    const pool = { query: jest.fn(async () => ({ rows: [], rowCount: 0 })) } as unknown as Pool;
    const ref = await Test.createTestingModule({
      imports: [
        WebhooksModule.forRootAsync({
          useFactory: () => ({
            pool,
            schema: 'svc',
            secretKey: 'k'.repeat(40),
            policy: STRICT_TARGET_POLICY,
            worker: { owner: 'test', pollIntervalMs: 10_000 },
          }),
        }),
      ],
    }).compile();
    const app = ref.createNestApplication();
    await app.init();
    expect(app.get(WebhookSubscriptions)).toBeInstanceOf(WebhookSubscriptions);
    const worker = app.get(WebhookDeliveryWorker);
    expect(worker).toBeInstanceOf(WebhookDeliveryWorker);
    await app.close();
    // The worker ran a round (one claim) and stopped with the app.
    expect((pool.query as jest.Mock).mock.calls.length).toBeGreaterThanOrEqual(1);
  });
});
