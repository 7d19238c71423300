import { withClient } from '@platform/testing';
import { startStatus, type StatusFixture } from './status-fixture';

type Resource = { slug: string; state: string; stateSource: string };
type Incident = {
  id: string;
  status: string;
  components: string[];
  updates: { seq: number; status: string; hash: string }[];
};

describe('public-status management API (real PostgreSQL)', () => {
  let s: StatusFixture;
  let acme: Record<string, string>;
  let other: Record<string, string>;

  beforeAll(async () => {
    s = await startStatus('ps_manage');
    acme = await s.business('acme');
    other = await s.business('other');
    await s.manage(acme, 'PUT', '/products/api', { name: 'API', published: true });
    await s.manage(acme, 'PUT', '/products/api/resources/database', { name: 'Database', published: true });
    await s.manage(acme, 'PUT', '/products/api/resources/edge', { name: 'Edge', published: true });
  });

  afterAll(async () => {
    await s?.close();
  });

  it('refuses a call without a key (401), with a key lacking the scope (403), for another business (403)', async () => {
    const none = await s.manage({}, 'GET', '/products');
    expect([none.status, none.body.value.reason]).toEqual([401, 'API_KEY_MISSING']);
    const readOnly = await s.business('reader', ['status:read']);
    const denied = await s.manage(readOnly, 'PUT', '/products/x', { name: 'X' });
    expect([denied.status, denied.body.value.reason]).toEqual([403, 'SCOPE_MISSING']);
    const mismatch = await s.manage({ ...other, 'Business-Id': 'acme' }, 'GET', '/products');
    expect([mismatch.status, mismatch.body.value.reason]).toEqual([403, 'TENANT_MISMATCH']);
  });

  it("never reaches another business's data: its slugs answer 404 and its lists stay empty", async () => {
    const probe = await s.manage(other, 'POST', '/products/api/resources/database/state', {
      state: 'major_outage',
    });
    expect([probe.status, probe.body.value.reason]).toEqual([404, 'PUBLIC_STATUS_PRODUCT_NOT_FOUND']);
    const list = await s.manage<{ items: unknown[] }>(other, 'GET', '/products');
    expect(list.body.value.items).toEqual([]);
    const incident = await s.manage(acme, 'POST', '/incidents', { name: 'X', impact: 'minor', body: 'x' });
    const theirs = await s.manage(
      other,
      'POST',
      `/incidents/${(incident.body.value as { id: string }).id}/resolve`,
    );
    expect([theirs.status, theirs.body.value.reason]).toEqual([404, 'PUBLIC_STATUS_INCIDENT_NOT_FOUND']);
  });

  it('writes every state change with its history row, once (the same state again is a no-op)', async () => {
    const set = await s.manage<Resource>(acme, 'POST', '/products/api/resources/database/state', {
      state: 'degraded_performance',
      note: 'slow',
    });
    expect(set.status).toBe(200);
    expect(set.body.value).toMatchObject({ state: 'degraded_performance', stateSource: 'manual' });
    await s.manage(acme, 'POST', '/products/api/resources/database/state', { state: 'degraded_performance' });
    const history = await s.manage<{ items: { state: string; endedAt: string | null }[] }>(
      acme,
      'GET',
      '/products/api/resources/database/history',
    );
    expect(history.body.value.items.map((h) => [h.state, h.endedAt === null])).toEqual([
      ['degraded_performance', true],
      ['operational', false],
    ]);
    await withClient(s.db.url, async (c) => {
      await expect(c.query(`DELETE FROM public_status.state_history`)).rejects.toThrow(/append-only/);
      await expect(c.query(`UPDATE public_status.state_history SET state = 'operational'`)).rejects.toThrow(
        /append-only/,
      );
    });
  });

  it('runs an incident: open with component state, update, resolve (states restored), no update after', async () => {
    const opened = await s.manage<Incident>(acme, 'POST', '/incidents', {
      name: 'Edge errors',
      impact: 'major',
      body: 'Investigating.',
      components: ['api/edge'],
      componentState: 'partial_outage',
    });
    expect(opened.status).toBe(201);
    expect(opened.body.value).toMatchObject({ status: 'investigating', components: ['api/edge'] });
    const id = opened.body.value.id;
    expect(id).toMatch(/^inc_[a-z2-7]{12}$/);
    const updated = await s.manage<Incident>(acme, 'POST', `/incidents/${id}/updates`, {
      status: 'identified',
      body: 'A bad deploy.',
    });
    expect(updated.body.value.updates.map((u) => [u.seq, u.status])).toEqual([
      [2, 'identified'],
      [1, 'investigating'],
    ]);
    const catalog = await s.manage<{ items: { resources: Resource[] }[] }>(acme, 'GET', '/products');
    expect(catalog.body.value.items[0].resources.find((r) => r.slug === 'edge')).toMatchObject({
      state: 'partial_outage',
      stateSource: 'incident',
    });
    const resolved = await s.manage<Incident>(acme, 'POST', `/incidents/${id}/resolve`, {
      body: 'Rolled back.',
    });
    expect(resolved.body.value.status).toBe('resolved');
    const after = await s.manage<{ items: { resources: Resource[] }[] }>(acme, 'GET', '/products');
    expect(after.body.value.items[0].resources.find((r) => r.slug === 'edge')?.state).toBe('operational');
    const late = await s.manage(acme, 'POST', `/incidents/${id}/updates`, {
      status: 'monitoring',
      body: 'x',
    });
    expect([late.status, late.body.value.reason]).toEqual([409, 'PUBLIC_STATUS_INCIDENT_RESOLVED']);
  });

  it('runs a maintenance: schedule, start (under_maintenance), complete (operational), no restart', async () => {
    const m = await s.manage<{ id: string; status: string }>(acme, 'POST', '/maintenances', {
      name: 'Upgrade',
      scheduledFor: '2030-01-01T02:00:00Z',
      scheduledUntil: '2030-01-01T03:00:00Z',
      components: ['api/edge'],
    });
    expect(m.body.value.status).toBe('scheduled');
    await s.manage(acme, 'POST', `/maintenances/${m.body.value.id}/start`);
    let catalog = await s.manage<{ items: { resources: Resource[] }[] }>(acme, 'GET', '/products');
    expect(catalog.body.value.items[0].resources.find((r) => r.slug === 'edge')?.state).toBe(
      'under_maintenance',
    );
    await s.manage(acme, 'POST', `/maintenances/${m.body.value.id}/complete`);
    catalog = await s.manage<{ items: { resources: Resource[] }[] }>(acme, 'GET', '/products');
    expect(catalog.body.value.items[0].resources.find((r) => r.slug === 'edge')?.state).toBe('operational');
    const again = await s.manage(acme, 'POST', `/maintenances/${m.body.value.id}/start`);
    expect([again.status, again.body.value.reason]).toEqual([409, 'PUBLIC_STATUS_MAINTENANCE_TRANSITION']);
    const backwards = await s.manage(acme, 'POST', '/maintenances', {
      name: 'x',
      scheduledFor: '2030-01-01T03:00:00Z',
      scheduledUntil: '2030-01-01T02:00:00Z',
    });
    expect([backwards.status, backwards.body.value.reason]).toEqual([
      400,
      'PUBLIC_STATUS_MAINTENANCE_WINDOW_INVALID',
    ]);
  });

  it('keeps public slugs unique across businesses and answers in the caller language', async () => {
    const taken = await s.manage(other, 'PUT', '/business', { slug: 'acme' });
    expect([taken.status, taken.body.value.reason]).toEqual([409, 'PUBLIC_STATUS_SLUG_TAKEN']);
    const ru = await s.manage({ ...other, 'Language-Code': 'ru' }, 'PUT', '/business', { slug: 'acme' });
    expect(ru.body.error).toBe('Идентификатор acme уже занят.');
  });

  it.each([
    ['PUT', '/products/Bad_Slug', { name: 'x' }],
    ['PUT', '/products/api', { name: '' }],
    ['PUT', '/products/api', { name: 'x', published: 'yes' }],
    ['PUT', '/products/api', { name: 'x', sortOrder: 1e12 }],
    ['POST', '/products/api/resources/database/state', { state: 'down' }],
    ['POST', '/products/api/resources/database/state', { state: 'operational', extra: 1 }],
    ['POST', '/incidents', { name: 'x', impact: 'huge', body: 'x' }],
    ['POST', '/incidents', { name: 'x', impact: 'minor', body: 'x', components: ['../etc'] }],
    ['POST', '/incidents', { name: 'x', impact: 'minor', body: 'x', components: 'api/edge' }],
    ['POST', '/incidents/not-an-id/resolve', {}],
    [
      'POST',
      '/maintenances',
      { name: 'x', scheduledFor: 'tomorrow', scheduledUntil: '2030-01-01T03:00:00Z' },
    ],
    ['GET', '/products/api/resources/database/history?limit=0', undefined],
  ])('%s %s with hostile input: 400, never 500', async (method, path, body) => {
    const res = await s.manage(acme, method, path, body);
    expect([res.status, res.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
  });
});
