import { rawRequest } from '@platform/testing';
import { startStatus, type StatusFixture } from './status-fixture';

describe('public-status anonymous HTTP: caching, Statuspage format, hostile input (real PostgreSQL)', () => {
  let s: StatusFixture;
  let mgr: Record<string, string>;

  beforeAll(async () => {
    s = await startStatus('ps_public_http', { PUBLIC_STATUS_URL: 'https://status.example.com/' });
    mgr = await s.business('acme');
    await s.manage(mgr, 'PUT', '/business', { name: 'Acme', published: true });
    await s.manage(mgr, 'PUT', '/products/api', { name: 'API', published: true });
    await s.manage(mgr, 'PUT', '/products/api/resources/database', { name: 'Database', published: true });
    await s.manage(mgr, 'PUT', '/products/api/resources/edge', { name: 'Edge', published: true });
  });

  afterAll(async () => {
    await s?.close();
  });

  it.each([
    'Products',
    'Products?business=acme',
    'ProductStatus?business=acme&product=api',
    // Uptime of a range that ends before today: today's live part moves on with every second.
    'ProductUptime?business=acme&product=api&from=2026-01-01&to=2026-01-31',
    'StatusPage?business=acme',
    'StatusPage?business=acme&format=statuspage',
    'StatusPageHistory?business=acme',
    'UptimeHistory?business=acme&from=2026-01-01&to=2026-01-31',
    'ChainHeads?business=acme',
  ])('GET %s: public Cache-Control, an ETag, and 304 for If-None-Match', async (path) => {
    const first = await rawRequest(`${s.base}/PublicStatus/${path}`);
    expect(first.status).toBe(200);
    expect(String(first.headers['cache-control'])).toMatch(/^public, max-age=\d+$/);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await rawRequest(`${s.base}/PublicStatus/${path}`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('changes the ETag when the state changes', async () => {
    const before = await rawRequest(`${s.base}/PublicStatus/StatusPage?business=acme`);
    await s.manage(mgr, 'POST', '/products/api/resources/edge/state', { state: 'partial_outage' });
    const after = await rawRequest(`${s.base}/PublicStatus/StatusPage?business=acme`, {
      headers: { 'If-None-Match': String(before.headers.etag) },
    });
    expect(after.status).toBe(200);
    await s.manage(mgr, 'POST', '/products/api/resources/edge/state', { state: 'operational' });
  });

  it('serves a Statuspage summary.json at the top level, with the five state names and the page indicator', async () => {
    await s.manage(mgr, 'POST', '/products/api/resources/database/state', { state: 'major_outage' });
    await s.manage(mgr, 'POST', '/incidents', {
      name: 'DB down',
      impact: 'critical',
      body: 'Investigating',
      components: ['api/database'],
    });
    const res = await rawRequest(`${s.base}/PublicStatus/StatusPage?business=acme&format=statuspage`);
    const summary = res.json as {
      page: Record<string, unknown>;
      components: {
        id: string;
        status: string;
        group: boolean;
        group_id: string | null;
        components?: string[];
      }[];
      incidents: {
        name: string;
        status: string;
        impact: string;
        components: { id: string }[];
        incident_updates: { body: string }[];
      }[];
      scheduled_maintenances: unknown[];
      status: { indicator: string; description: string };
    };
    expect(Object.keys(summary).sort()).toEqual([
      'components',
      'incidents',
      'page',
      'scheduled_maintenances',
      'status',
    ]);
    expect(summary.page).toMatchObject({
      id: 'acme',
      name: 'Acme',
      time_zone: 'Etc/UTC',
      url: 'https://status.example.com/PublicStatus/StatusPage?business=acme',
    });
    expect(summary.components.map((c) => [c.id, c.status, c.group, c.group_id])).toEqual([
      ['api', 'major_outage', true, null],
      ['api/database', 'major_outage', false, 'api'],
      ['api/edge', 'operational', false, 'api'],
    ]);
    expect(summary.components[0].components).toEqual(['api/database', 'api/edge']);
    expect(summary.incidents).toMatchObject([
      {
        name: 'DB down',
        status: 'investigating',
        impact: 'critical',
        components: [{ id: 'api/database' }],
        incident_updates: [{ body: 'Investigating' }],
      },
    ]);
    expect(summary.status).toEqual({ indicator: 'critical', description: 'Major System Outage' });
    const json = await s.get<{ status: { indicator: string; state: string } }>('StatusPage?business=acme');
    expect(json.body).toMatchObject({
      success: true,
      value: { status: { indicator: 'critical', state: 'major_outage' } },
    });
  });

  it.each([
    'ProductStatus',
    'ProductStatus?business=acme',
    'ProductStatus?business=../etc&product=api',
    'ProductStatus?business=ACME&product=api',
    'ProductStatus?business=acme&product=api&product=api',
    'ProductStatus?business=acme&product=api&debug=1',
    'ProductUptime?business=acme&product=api&days=0',
    'ProductUptime?business=acme&product=api&days=367',
    'ProductUptime?business=acme&product=api&days=1e3',
    'ProductUptime?business=acme&product=api&from=2026-02-30',
    'StatusPage?business=acme&format=xml',
    'StatusPage?business=%00',
    `StatusPage?business=${'a'.repeat(65)}`,
    'StatusPageHistory?business=acme&page=0',
    'StatusPageHistory?business=acme&per_page=1000',
    'StatusPageHistory?business=acme&kind=secrets',
    'UptimeHistory?business=acme&from=yesterday',
    'Products?limit=-1',
    'Products?business[$ne]=x',
  ])('GET %s: 400 in the envelope, never 500', async (path) => {
    const res = await s.get(path);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });

  it.each([
    ['ProductUptime?business=acme&product=api&from=2026-02-01&to=2026-01-01', 'PUBLIC_STATUS_INVALID_RANGE'],
    ['ProductUptime?business=acme&product=api&days=7&from=2026-01-01', 'PUBLIC_STATUS_INVALID_RANGE'],
    ['UptimeHistory?business=acme&from=2010-01-01&to=2026-01-01', 'PUBLIC_STATUS_INVALID_RANGE'],
  ])('GET %s: 400 %s, localised', async (path, reason) => {
    const res = await s.get(path, { 'Language-Code': 'tr' });
    expect([res.status, res.body.value.reason]).toEqual([400, reason]);
    expect(res.body.error).toMatch(/gün/);
  });

  it('answers an unknown or unpublished business with the same 404', async () => {
    const res = await s.get('StatusPage?business=nobody', { 'Language-Code': 'es' });
    expect([res.status, res.body.value.reason, res.body.error]).toEqual([
      404,
      'PUBLIC_STATUS_BUSINESS_NOT_FOUND',
      'No se encontró la empresa nobody.',
    ]);
  });

  it('answers a cacheable refusal with Vary on the language headers, in the language asked', async () => {
    for (const [path, status] of [
      ['StatusPage?business=nobody', 404],
      ['ProductUptime?business=acme&product=api&days=0', 400],
    ] as const) {
      const texts = new Set<string>();
      for (const lang of ['en', 'ru', 'kk', 'uz', 'tr', 'es']) {
        const res = await rawRequest(`${s.base}/PublicStatus/${path}`, {
          headers: { 'Language-Code': lang },
        });
        expect(res.status).toBe(status);
        expect(String(res.headers['cache-control'])).toMatch(/^public, max-age=\d+$/);
        expect(String(res.headers.vary).split(/\s*,\s*/)).toEqual(
          expect.arrayContaining(['Language-Code', 'Accept-Language']),
        );
        texts.add(String((res.json as { error: string }).error));
      }
      expect(texts.size).toBe(6);
    }
  });

  describe('a business whose only news is a maintenance announced for next week', () => {
    let beta: Record<string, string>;
    let announcedAt: number;
    const nextWeek = new Date(Date.now() + 7 * 86_400_000);

    beforeAll(async () => {
      beta = await s.business('beta');
      await s.manage(beta, 'PUT', '/business', { name: 'Beta', published: true });
      await s.manage(beta, 'PUT', '/products/api', { name: 'API', published: true });
      await s.manage(beta, 'PUT', '/products/api/resources/web', { name: 'Web', published: true });
      announcedAt = Date.now();
      const m = await s.manage(beta, 'POST', '/maintenances', {
        name: 'Upgrade',
        body: 'Writes pause.',
        scheduledFor: nextWeek.toISOString(),
        scheduledUntil: new Date(nextWeek.getTime() + 3_600_000).toISOString(),
        components: ['api/web'],
      });
      expect(m.status).toBe(201);
    });

    it('dates the page and the maintenance by their last change, never by the future start time', async () => {
      const json = await s.get<{
        updatedAt: string;
        maintenances: { scheduledFor: string; createdAt: string; updatedAt: string }[];
      }>('StatusPage?business=beta');
      const v = json.body.value;
      expect(v.maintenances).toHaveLength(1);
      expect(v.maintenances[0].scheduledFor).toBe(nextWeek.toISOString());
      const now = Date.now();
      for (const t of [v.updatedAt, v.maintenances[0].createdAt, v.maintenances[0].updatedAt]) {
        expect(Date.parse(t)).toBeGreaterThanOrEqual(announcedAt - 1000);
        expect(Date.parse(t)).toBeLessThanOrEqual(now);
      }
      const summary = (await rawRequest(`${s.base}/PublicStatus/StatusPage?business=beta&format=statuspage`))
        .json as {
        page: { url: string; updated_at: string };
        scheduled_maintenances: {
          created_at: string;
          updated_at: string;
          scheduled_for: string;
          incident_updates: { created_at: string; display_at: string }[];
        }[];
      };
      expect(summary.page.url).toBe('https://status.example.com/PublicStatus/StatusPage?business=beta');
      const [m] = summary.scheduled_maintenances;
      expect(m.scheduled_for).toBe(nextWeek.toISOString());
      for (const t of [
        summary.page.updated_at,
        m.created_at,
        m.updated_at,
        m.incident_updates[0].created_at,
        m.incident_updates[0].display_at,
      ])
        expect(Date.parse(t)).toBeLessThanOrEqual(now);
    });

    it("counts today's live uptime up to the request, not to the start of its minute", async () => {
      const page = await s.get<{ products: { components: { since: string }[] }[] }>(
        'StatusPage?business=beta',
      );
      const since = Date.parse(page.body.value.products[0].components[0].since);
      const from = Math.max(since, Math.floor(Date.now() / 86_400_000) * 86_400_000);
      // Seconds after the state began and past the first seconds of a minute: "the start of the
      // minute" then counts measurably less (or nothing) than "now".
      const second = () => Date.now() % 60_000;
      while (Date.now() - from < 5000 || second() < 3000 || second() > 55_000)
        await new Promise((r) => setTimeout(r, 250));
      const before = Date.now();
      const res = await s.get<{ components: { days: { seconds?: Record<string, number> }[] }[] }>(
        'ProductUptime?business=beta&product=api&days=1',
      );
      const after = Date.now();
      const today = res.body.value.components[0].days.at(-1)?.seconds ?? {};
      const counted = Object.values(today).reduce((a, b) => a + b, 0);
      expect(counted).toBeGreaterThanOrEqual(Math.floor((before - from) / 1000));
      expect(counted).toBeLessThanOrEqual(Math.ceil((after - from) / 1000));
    });
  });
});
