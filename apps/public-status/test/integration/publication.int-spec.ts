import { rawRequest, withClient } from '@platform/testing';
import { UptimeService } from '../../src/uptime/uptime.service';
import { dayKey, DAY_MS } from '../../src/uptime/uptime-math';
import { startStatus, type StatusFixture } from './status-fixture';

/**
 * The publication test: publish and unpublish at each of the three levels (business, product,
 * resource) and diff the output of every anonymous endpoint, JSON and Statuspage format, against
 * what must not appear: names, slugs, incident and maintenance codes, and any internal id.
 */
describe('public-status publication rule, diffed over every anonymous endpoint (real PostgreSQL)', () => {
  let s: StatusFixture;
  let mgr: Record<string, string>;
  const code: Record<string, string> = {};
  let internalIds: string[] = [];

  // What belongs to the target resource, product and business only.
  const RESOURCE_TOKENS = [
    'tgt-res',
    'Target Resource Name',
    'Target Incident Name',
    'Target Maintenance Name',
    'Target Old Incident',
    'Target Past Maintenance',
  ];
  const PRODUCT_TOKENS = ['tgt-prod', 'Target Product Name', ...RESOURCE_TOKENS];
  const BUSINESS_TOKENS = [
    'tgt-biz',
    'Target Business Name',
    'vis-prod',
    'Visible Product Name',
    'vis-res',
    'Visible Resource Name',
    ...PRODUCT_TOKENS,
  ];

  beforeAll(async () => {
    s = await startStatus('ps_publication');
    mgr = await s.business('tgt-internal-id');
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await s.manage<{ id?: string }>(mgr, method, path, body);
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.value;
    };
    await ok('PUT', '/business', { name: 'Target Business Name', slug: 'tgt-biz', published: true });
    await ok('PUT', '/products/tgt-prod', { name: 'Target Product Name', published: true });
    await ok('PUT', '/products/tgt-prod/resources/tgt-res', {
      name: 'Target Resource Name',
      published: true,
    });
    await ok('PUT', '/products/tgt-prod/resources/sib-res', {
      name: 'Sibling Resource Name',
      published: true,
    });
    await ok('PUT', '/products/vis-prod', { name: 'Visible Product Name', published: true });
    await ok('PUT', '/products/vis-prod/resources/vis-res', {
      name: 'Visible Resource Name',
      published: true,
    });
    // Touches only the target resource: must vanish with it.
    code.open = (
      await ok('POST', '/incidents', {
        name: 'Target Incident Name',
        impact: 'major',
        body: 'Target body',
        components: ['tgt-prod/tgt-res'],
        componentState: 'major_outage',
      })
    ).id as string;
    code.old = (
      await ok('POST', '/incidents', {
        name: 'Target Old Incident',
        impact: 'minor',
        body: 'x',
        components: ['tgt-prod/tgt-res'],
      })
    ).id as string;
    await ok('POST', `/incidents/${code.old}/resolve`);
    code.mnt = (
      await ok('POST', '/maintenances', {
        name: 'Target Maintenance Name',
        scheduledFor: '2031-01-01T00:00:00Z',
        scheduledUntil: '2031-01-01T01:00:00Z',
        components: ['tgt-prod/tgt-res'],
      })
    ).id as string;
    code.past = (
      await ok('POST', '/maintenances', {
        name: 'Target Past Maintenance',
        scheduledFor: '2020-01-01T00:00:00Z',
        scheduledUntil: '2020-01-01T01:00:00Z',
        components: ['tgt-prod/tgt-res'],
      })
    ).id as string;
    await ok('POST', `/maintenances/${code.past}/start`);
    await ok('POST', `/maintenances/${code.past}/complete`);
    // Touches the target and a visible resource: stays, naming only what is public.
    code.shared = (
      await ok('POST', '/incidents', {
        name: 'Shared Incident',
        impact: 'minor',
        body: 'x',
        components: ['tgt-prod/tgt-res', 'vis-prod/vis-res'],
      })
    ).id as string;
    // Daily rows, so the uptime chain heads have something to show.
    await s.app.get(UptimeService).rollup(dayKey(Date.now()), dayKey(Date.now()), Date.now() + 2 * DAY_MS);
    internalIds = await withClient(s.db.url, async (c) =>
      (
        await c.query<{ id: string }>(
          `SELECT id::text FROM public_status.products UNION ALL SELECT id::text FROM public_status.resources`,
        )
      ).rows.map((r) => r.id),
    );
  });

  afterAll(async () => {
    await s?.close();
  });

  const PATHS = [
    'Products',
    'Products?business=tgt-biz',
    'ProductStatus?business=tgt-biz&product=tgt-prod',
    'ProductStatus?business=tgt-biz&product=vis-prod',
    'ProductUptime?business=tgt-biz&product=tgt-prod&days=7',
    'ProductUptime?business=tgt-biz&product=vis-prod',
    'StatusPage?business=tgt-biz',
    'StatusPage?business=tgt-biz&format=statuspage',
    'StatusPageHistory?business=tgt-biz',
    'StatusPageHistory?business=tgt-biz&kind=maintenances',
    'UptimeHistory?business=tgt-biz',
    'UptimeHistory?business=tgt-biz&product=tgt-prod',
    'ChainHeads?business=tgt-biz',
    'Rss?business=tgt-biz',
  ];

  /** Every anonymous endpoint's body, as sent. */
  async function everything(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const p of PATHS) {
      const res = await rawRequest(`${s.base}/PublicStatus/${p}`);
      expect(res.status === 200 || res.status === 404).toBe(true);
      out[p] = res.text;
    }
    return out;
  }

  /**
   * A hidden slug answers exactly like one that never existed, which echoes the caller's own input
   * (`Product tgt-prod was not found.`): the tokens of the request itself are not leaks in a 404.
   */
  const leaks = (bodies: Record<string, string>, tokens: string[]) =>
    Object.entries(bodies).flatMap(([path, text]) => [
      ...tokens
        .filter((t) => text.includes(t) && !(JSON.parse(text).code === 404 && path.includes(t)))
        .map((t) => `${path}: ${t}`),
      ...internalIds.filter((id) => text.includes(id)).map((id) => `${path}: internal id ${id}`),
      ...(text.includes('tgt-internal-id') ? [`${path}: the business's tenant id`] : []),
    ]);

  const manage = async (method: string, path: string, body: unknown) => {
    const res = await s.manage(mgr, method, path, body);
    expect(res.status).toBe(200);
  };

  it('shows everything while every level is published (so the diff below can see what it looks for)', async () => {
    const all = Object.values(await everything()).join('\n');
    for (const t of [...BUSINESS_TOKENS, code.open, code.old, code.mnt, code.past, code.shared])
      expect(all).toContain(t);
    expect(leaks(await everything(), [])).toEqual([]);
  });

  it('hides an unpublished resource everywhere, and what touches only it, while its product stays', async () => {
    await manage('PUT', '/products/tgt-prod/resources/tgt-res', {
      name: 'Target Resource Name',
      published: false,
    });
    const bodies = await everything();
    expect(leaks(bodies, [...RESOURCE_TOKENS, code.open, code.old, code.mnt, code.past])).toEqual([]);
    const all = Object.values(bodies).join('\n');
    expect(all).toContain('Target Product Name');
    expect(all).toContain(code.shared);
    // The product's state no longer counts the hidden resource's major outage.
    const status = JSON.parse(bodies['ProductStatus?business=tgt-biz&product=tgt-prod']);
    expect(status.value.product.state).toBe('operational');
    expect(status.value.components.map((c: { id: string }) => c.id)).toEqual(['tgt-prod/sib-res']);
    await manage('PUT', '/products/tgt-prod/resources/tgt-res', {
      name: 'Target Resource Name',
      published: true,
    });
  });

  it('hides an unpublished product with all its resources, though each resource is still published', async () => {
    await manage('PUT', '/products/tgt-prod', { name: 'Target Product Name', published: false });
    const bodies = await everything();
    expect(
      leaks(bodies, [...PRODUCT_TOKENS, 'Sibling Resource Name', code.open, code.old, code.mnt, code.past]),
    ).toEqual([]);
    expect(JSON.parse(bodies['ProductStatus?business=tgt-biz&product=tgt-prod']).value.reason).toBe(
      'PUBLIC_STATUS_PRODUCT_NOT_FOUND',
    );
    // Indistinguishable from a product that never existed.
    const never = await rawRequest(`${s.base}/PublicStatus/ProductStatus?business=tgt-biz&product=never-was`);
    const hidden = await rawRequest(`${s.base}/PublicStatus/ProductStatus?business=tgt-biz&product=tgt-prod`);
    const shape = (text: string, slug: string) =>
      text.replace(/"requestId":"[^"]*"/, '').replace(slug, 'SLUG');
    expect(shape(hidden.text, 'tgt-prod')).toBe(shape(never.text, 'never-was'));
    expect(JSON.parse(bodies['Products?business=tgt-biz']).value.total).toBe(1);
    expect(Object.values(bodies).join('\n')).toContain('Visible Product Name');
    await manage('PUT', '/products/tgt-prod', { name: 'Target Product Name', published: true });
  });

  it('hides an unpublished business entirely: its slug answers 404 and the all-products list skips it', async () => {
    await manage('PUT', '/business', { published: false });
    const bodies = await everything();
    expect(
      leaks(bodies, [
        ...BUSINESS_TOKENS,
        'Sibling Resource Name',
        'Shared Incident',
        code.open,
        code.old,
        code.mnt,
        code.past,
        code.shared,
      ]),
    ).toEqual([]);
    expect(JSON.parse(bodies.Products).value).toEqual({ items: [], total: 0 });
    for (const p of PATHS.filter((x) => x !== 'Products'))
      expect([p, JSON.parse(bodies[p]).value.reason]).toEqual([p, 'PUBLIC_STATUS_BUSINESS_NOT_FOUND']);
    await manage('PUT', '/business', { published: true });
    expect(Object.values(await everything()).join('\n')).toContain('Target Resource Name');
  });
});
