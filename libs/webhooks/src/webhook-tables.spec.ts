import { rowsOf } from './webhook-tables';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookSecretBox } from './webhook-secret-box';
import { WebhookSubscriptions } from './webhook-subscriptions.service';

describe('webhook queries on a pool or in a caller’s transaction', () => {
  it('read rows from pg answers and from TypeORM answers, UPDATE/DELETE pairs included', () => {
    const rows = [{ id: 'a' }, { id: 'b' }];
    expect(rowsOf({ rows, rowCount: 2 })).toEqual(rows);
    expect(rowsOf(rows)).toEqual(rows);
    expect(rowsOf([rows, 2])).toEqual(rows);
    expect(rowsOf([[], 0])).toEqual([]);
    expect(rowsOf(undefined)).toEqual([]);
  });

  it('run a bound copy’s statements on the runner given, not on the pool', async () => {
    const pool = { query: jest.fn(async () => ({ rows: [] })) };
    const tx = { query: jest.fn(async () => [[{ id: 'x' }], 1]) };
    const subs = new WebhookSubscriptions(pool, 'svc', { secretBox: new WebhookSecretBox('k'.repeat(40)) });
    expect(await subs.withRunner(tx).delete('t1', '4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f')).toBe(true);
    const log = new WebhookDeliveries(pool, 'svc');
    await log.withRunner(tx).list('t1');
    expect(tx.query).toHaveBeenCalledTimes(2);
    expect(pool.query).not.toHaveBeenCalled();
  });
});
