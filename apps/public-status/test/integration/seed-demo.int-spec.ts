import { withClient } from '@platform/testing';
import { seedDemo } from '../../src/demo-seed';
import { startStatus, type StatusFixture } from './status-fixture';

describe('public-status seed-demo (real PostgreSQL)', () => {
  let s: StatusFixture;

  beforeAll(async () => {
    s = await startStatus('ps_seed');
  });

  afterAll(async () => {
    await s?.close();
  });

  it('publishes the three platform products, hides the rest, keeps a past incident; a re-run changes nothing', async () => {
    const first = await seedDemo(s.app);
    await seedDemo(s.app);
    expect(first).toMatchObject({ businessId: 'platform', apiKey: expect.stringMatching(/^pst_/) });
    const products = await s.get<{ items: { business: string; id: string; state: string }[]; total: number }>(
      'Products',
    );
    expect(products.body.value.total).toBe(3);
    expect(products.body.value.items.map((p) => p.id).sort()).toEqual([
      'calendar',
      'lending',
      'verification',
    ]);
    const page = await s.get<{ products: { components: { id: string }[] }[] }>(
      'StatusPage?business=platform',
    );
    expect(page.body.value.products.flatMap((p) => p.components.map((c) => c.id))).toEqual([
      'calendar/api',
      'lending/api',
      'verification/api',
    ]);
    const history = await s.get<{ items: { name: string; status: string }[]; total: number }>(
      'StatusPageHistory?business=platform',
    );
    expect(history.body.value).toMatchObject({
      total: 1,
      items: [{ name: 'Slow calendar sync', status: 'resolved' }],
    });
    expect((await s.get('StatusPage?business=staging')).status).toBe(404);
    const mapped = await withClient(s.db.url, (c) =>
      c.query(`SELECT r.slug, p.slug AS product, r.platform_service AS service FROM public_status.resources r
                 JOIN public_status.products p ON p.id = r.product_id
                WHERE r.platform_service IS NOT NULL ORDER BY p.slug`),
    );
    expect(mapped.rows).toEqual(
      ['calendar', 'lending', 'verification'].map((p) => ({ slug: 'api', product: p, service: p })),
    );
  });
});
