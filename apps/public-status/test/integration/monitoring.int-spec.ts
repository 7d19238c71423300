import type { INestApplication } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serviceEnv, withClient } from '@platform/testing';
import { createPublicStatusApp } from '../../src/bootstrap';
import { CheckRunnerService } from '../../src/monitoring/check-runner.service';
import { HealthMappingService } from '../../src/monitoring/health-mapping.service';
import { startStatus, type StatusFixture } from './status-fixture';

type Resource = { slug: string; state: string; stateSource: string; platformService: string | null };
type History = { items: { state: string; source: string }[] };
type Check = { id: string; status: string; wants: string | null };

/** Runners and the health mapping are driven by the test: timers off on every app. */
const ENV = { MONITORING_TICK_MS: '0', HEALTH_SYNC_MS: '0', MONITORING_ALLOW_PRIVATE_TARGETS: 'loopback' };

describe('public-status monitoring checks and platform-health mapping (real PostgreSQL)', () => {
  let s: StatusFixture;
  let second: INestApplication;
  let acme: Record<string, string>;
  let target: Server;
  let mode: 'ok' | 'fail' | 'hang' = 'ok';
  /** Paths under /auto/ that answer 503 (the automatic-incident test's two checks). */
  const failing = new Set<string>();
  let url: string;

  const runner = () => s.app.get(CheckRunnerService);
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    withClient(s.db.url, async (c) => (await c.query(text, params)).rows as T[]);
  /** Makes every check due now: each call is one new slot. */
  const due = () => sql(`UPDATE public_status.monitoring_checks SET next_run_at = now()`);
  const slot = async () => {
    await due();
    return runner().runDue();
  };
  const resource = async (slug: string) => {
    const list = await s.manage<{ items: { slug: string; resources: Resource[] }[] }>(
      acme,
      'GET',
      '/products',
    );
    const found = list.body.value.items.flatMap((p) => p.resources).find((r) => r.slug === slug);
    if (!found) throw new Error(`no resource ${slug}`);
    return found;
  };
  const history = async (slug: string) =>
    (await s.manage<History>(acme, 'GET', `/products/api/resources/${slug}/history`)).body.value.items;
  const createCheck = async (body: Record<string, unknown>) => {
    const res = await s.manage<Check>(acme, 'POST', '/checks', body);
    expect([res.status, res.body.code]).toEqual([201, 201]);
    return res.body.value;
  };

  beforeAll(async () => {
    target = createServer((req, res) => {
      if (req.url?.startsWith('/auto/')) {
        const ok = !failing.has(req.url);
        res.writeHead(ok ? 200 : 503).end();
        return;
      }
      if (mode === 'hang') return; // never answers: the probe's timeout must end it
      res.writeHead(mode === 'ok' ? 200 : 503, { 'content-type': 'application/json' });
      res.end(mode === 'ok' ? '{"status":"ok"}' : '{"status":"down"}');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
    s = await startStatus('ps_monitoring', ENV);
    second = await createPublicStatusApp(
      serviceEnv(s.db.url, { UPTIME_ROLLUP_INTERVAL_MS: '0', ...ENV }),
      false,
    );
    acme = await s.business('acme');
    await s.manage(acme, 'PUT', '/products/api', { name: 'API', published: true });
    for (const r of ['web', 'db', 'race', 'maint', 'manual', 'calendar', 'auto'])
      await s.manage(acme, 'PUT', `/products/api/resources/${r}`, { name: r, published: true });
  });

  afterAll(async () => {
    await second?.close();
    await s?.close();
    target.closeAllConnections();
    await new Promise((r) => target.close(r));
  });

  beforeEach(() => {
    mode = 'ok';
  });

  it('changes the state after N consecutive failures (history row, source check) and recovers after N successes', async () => {
    const check = await createCheck({
      component: 'api/web',
      name: 'Web',
      url,
      intervalSeconds: 10,
      timeoutMs: 500,
      failureThreshold: 2,
      bodyContains: '"ok"',
    });
    expect(await slot()).toBe(1);
    expect((await resource('web')).state).toBe('operational');
    mode = 'fail';
    await slot();
    expect((await resource('web')).state).toBe('operational'); // one failure is not an outage
    await slot();
    expect(await resource('web')).toMatchObject({ state: 'major_outage', stateSource: 'check' });
    expect((await history('web'))[0]).toMatchObject({ state: 'major_outage', source: 'check' });
    await slot(); // still failing: no second history row
    mode = 'ok';
    await slot();
    expect((await resource('web')).state).toBe('major_outage');
    await slot();
    expect(await resource('web')).toMatchObject({ state: 'operational', stateSource: 'check' });
    expect((await history('web')).map((h) => h.state).slice(0, 3)).toEqual([
      'operational',
      'major_outage',
      'operational',
    ]);
    const results = await s.manage<{ items: { outcome: string; statusCode: number | null }[] }>(
      acme,
      'GET',
      `/checks/${check.id}/results`,
    );
    expect(results.body.value.items.map((r) => r.outcome)).toEqual([
      'up',
      'up',
      'down',
      'down',
      'down',
      'up',
    ]);
    expect(results.body.value.items[2].statusCode).toBe(503);
  });

  it('opens an automatic incident on an outage, updates it as the outage worsens, resolves it on recovery', async () => {
    type Incident = {
      id: string;
      name: string;
      impact: string;
      status: string;
      origin: string;
      components: string[];
      updates: { seq: number; status: string; body: string }[];
    };
    const incidents = async () =>
      (await s.manage<{ items: Incident[] }>(acme, 'GET', '/incidents')).body.value.items;
    const put = await s.manage<Resource & { automaticIncidents: boolean }>(
      acme,
      'PUT',
      '/products/api/resources/auto',
      { name: 'Card payments', automaticIncidents: true },
    );
    expect(put.body.value.automaticIncidents).toBe(true);
    const check = (path: string, failureState: string) =>
      createCheck({
        component: 'api/auto',
        name: path,
        url: url.replace('/health', path),
        intervalSeconds: 10,
        timeoutMs: 500,
        failureThreshold: 1,
        failureState,
      });
    await check('/auto/slow', 'degraded_performance');
    await check('/auto/down', 'major_outage');
    const before = (await incidents()).length;
    await slot();
    expect(await incidents()).toHaveLength(before); // all up: nothing opened

    failing.add('/auto/slow');
    await slot();
    await slot(); // still degraded: the same incident, no update
    const opened = (await incidents()).filter((i) => i.origin === 'automatic');
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      name: 'API Card payments: degraded performance',
      impact: 'minor',
      status: 'investigating',
      components: ['api/auto'],
    });
    expect(opened[0].updates).toHaveLength(1);
    // The incident follows the state; it does not take it over (the checks still own it).
    expect(await resource('auto')).toMatchObject({ state: 'degraded_performance', stateSource: 'check' });

    failing.add('/auto/down');
    await slot();
    const worse = (await incidents()).find((i) => i.id === opened[0].id) as Incident;
    expect(worse).toMatchObject({ impact: 'critical', status: 'investigating' });
    expect(worse.updates.map((u) => u.seq)).toEqual([2, 1]);
    expect(worse.updates[0].body).toContain('major outage');

    // Recovery one check at a time (both at once may record in either order): back to degraded is an
    // update too, impact kept (it only rises); then operational resolves it.
    failing.delete('/auto/down');
    await slot();
    const better = (await incidents()).find((i) => i.id === opened[0].id) as Incident;
    expect(better).toMatchObject({ impact: 'critical', status: 'investigating' });
    expect(better.updates[0]).toMatchObject({ seq: 3, status: 'investigating' });
    expect(better.updates[0].body).toContain('degraded performance');
    failing.clear();
    await slot();
    const resolved = (await incidents()).find((i) => i.id === opened[0].id) as Incident;
    expect(resolved.status).toBe('resolved');
    expect(resolved.updates[0]).toMatchObject({ seq: 4, status: 'resolved' });
    expect(await resource('auto')).toMatchObject({ state: 'operational', stateSource: 'check' });
    // Nothing else opened one: resources without the flag (web, db) went through outages above.
    expect((await incidents()).filter((i) => i.origin === 'automatic').map((i) => i.id)).toEqual([
      opened[0].id,
    ]);

    // A new outage opens a new incident; clearing the flag meanwhile still lets recovery resolve it.
    failing.add('/auto/down');
    await slot();
    const second = (await incidents()).filter((i) => i.origin === 'automatic' && i.status !== 'resolved');
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({ impact: 'critical', name: 'API Card payments: major outage' });
    await s.manage(acme, 'PUT', '/products/api/resources/auto', {
      name: 'Card payments',
      automaticIncidents: false,
    });
    failing.clear();
    await slot();
    expect((await incidents()).find((i) => i.id === second[0].id)?.status).toBe('resolved');
    const rows = await sql<{ n: string }>(
      `SELECT count(*) AS n FROM public_status.incidents WHERE origin = 'automatic'`,
    );
    expect(Number(rows[0].n)).toBe(2);
    await sql(`UPDATE public_status.monitoring_checks SET enabled = false WHERE resource_id =
      (SELECT id FROM public_status.resources WHERE slug = 'auto')`);
  });

  it('counts a timeout as a failure', async () => {
    const check = await createCheck({
      component: 'api/db',
      name: 'Db',
      url,
      intervalSeconds: 10,
      timeoutMs: 200,
      failureThreshold: 1,
    });
    mode = 'hang';
    const started = Date.now();
    await slot();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await resource('db')).toMatchObject({ state: 'major_outage', stateSource: 'check' });
    const results = await s.manage<{ items: { outcome: string; error: string | null }[] }>(
      acme,
      'GET',
      `/checks/${check.id}/results`,
    );
    expect(results.body.value.items[0]).toMatchObject({ outcome: 'down', error: 'timeout after 200 ms' });
    await s.manage(acme, 'POST', `/checks/${check.id}/delete`);
    // Nothing watches it any more: the outage its check set does not stay forever.
    expect((await resource('db')).state).toBe('operational');
  });

  it('runs a slot once however many runners claim at the same time', async () => {
    const check = await createCheck({
      component: 'api/race',
      name: 'Race',
      url,
      intervalSeconds: 10,
      timeoutMs: 500,
    });
    const other = second.get(CheckRunnerService);
    for (let i = 0; i < 5; i++) {
      await sql(`UPDATE public_status.monitoring_checks SET next_run_at = now() WHERE id = $1`, [check.id]);
      const before = await sql<{ n: string }>(
        `SELECT count(*) AS n FROM public_status.check_results WHERE check_id = $1`,
        [check.id],
      );
      const counts = await Promise.all([
        runner().runDue(),
        other.runDue(),
        runner().runDue(),
        other.runDue(),
      ]);
      const after = await sql<{ n: string }>(
        `SELECT count(*) AS n FROM public_status.check_results WHERE check_id = $1`,
        [check.id],
      );
      expect(Number(after[0].n) - Number(before[0].n)).toBe(1);
      expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    }
    // Not due again until its next slot.
    expect(await runner().runDue()).toBe(0);
  });

  it('purges results older than the retention', async () => {
    const [{ id }] = await sql<{ id: string }>(`SELECT id FROM public_status.monitoring_checks LIMIT 1`);
    await sql(
      `INSERT INTO public_status.check_results (check_id, business_id, slot, at, outcome, latency_ms)
       VALUES ($1, 'acme', now() - interval '40 days', now() - interval '40 days', 'up', 1)`,
      [id],
    );
    const old = `SELECT count(*) AS n FROM public_status.check_results WHERE at < now() - interval '30 days'`;
    expect(Number((await sql<{ n: string }>(old))[0].n)).toBe(1);
    const total = Number(
      (await sql<{ n: string }>(`SELECT count(*) AS n FROM public_status.check_results`))[0].n,
    );
    expect(await runner().purge()).toBe(1);
    expect(Number((await sql<{ n: string }>(old))[0].n)).toBe(0);
    expect(
      Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM public_status.check_results`))[0].n),
    ).toBe(total - 1);
  });

  it('leaves an in-progress maintenance alone, and applies the check once it completes', async () => {
    await createCheck({
      component: 'api/maint',
      name: 'M',
      url,
      intervalSeconds: 10,
      timeoutMs: 500,
      failureThreshold: 1,
    });
    const m = await s.manage<{ id: string }>(acme, 'POST', '/maintenances', {
      name: 'Upgrade',
      scheduledFor: new Date(Date.now() - 60_000).toISOString(),
      scheduledUntil: new Date(Date.now() + 3_600_000).toISOString(),
      components: ['api/maint'],
    });
    await s.manage(acme, 'POST', `/maintenances/${m.body.value.id}/start`);
    mode = 'fail';
    await slot();
    await slot();
    expect(await resource('maint')).toMatchObject({ state: 'under_maintenance', stateSource: 'maintenance' });
    await s.manage(acme, 'POST', `/maintenances/${m.body.value.id}/complete`);
    expect((await resource('maint')).state).toBe('operational');
    await slot();
    expect(await resource('maint')).toMatchObject({ state: 'major_outage', stateSource: 'check' });
  });

  it('holds a manual state until staff set operational, which hands the resource back to its checks', async () => {
    await createCheck({
      component: 'api/manual',
      name: 'Man',
      url,
      intervalSeconds: 10,
      timeoutMs: 500,
      failureThreshold: 1,
    });
    await s.manage(acme, 'POST', '/products/api/resources/manual/state', { state: 'partial_outage' });
    await slot();
    expect(await resource('manual')).toMatchObject({ state: 'partial_outage', stateSource: 'manual' });
    mode = 'fail';
    await slot();
    expect(await resource('manual')).toMatchObject({ state: 'partial_outage', stateSource: 'manual' });
    await s.manage(acme, 'POST', '/products/api/resources/manual/state', { state: 'operational' });
    await slot();
    expect(await resource('manual')).toMatchObject({ state: 'major_outage', stateSource: 'check' });
  });

  it('refuses hostile check input with 400 and a code', async () => {
    const base = {
      component: 'api/web',
      name: 'x',
      url: 'https://example.com/',
      intervalSeconds: 10,
      timeoutMs: 500,
    };
    const bad: [Record<string, unknown>, string][] = [
      [{ ...base, url: 'ftp://example.com/' }, 'PUBLIC_STATUS_CHECK_TARGET_REFUSED'],
      [{ ...base, url: 'http://10.0.0.1/' }, 'PUBLIC_STATUS_CHECK_TARGET_REFUSED'],
      [{ ...base, url: 'http://169.254.169.254/latest/meta-data/' }, 'PUBLIC_STATUS_CHECK_TARGET_REFUSED'],
      [{ ...base, url: 'https://user:pw@example.com/' }, 'PUBLIC_STATUS_CHECK_TARGET_REFUSED'],
      [{ ...base, url: 'not a url' }, 'PUBLIC_STATUS_CHECK_TARGET_REFUSED'],
      [{ ...base, timeoutMs: 10_000 }, 'PUBLIC_STATUS_CHECK_TIMING_INVALID'],
      [{ ...base, expectStatusMin: 300, expectStatusMax: 200 }, 'PUBLIC_STATUS_CHECK_STATUS_RANGE_INVALID'],
      [{ ...base, intervalSeconds: 5 }, 'VALIDATION_FAILED'],
      [{ ...base, method: 'POST' }, 'VALIDATION_FAILED'],
      [{ ...base, failureThreshold: 0 }, 'VALIDATION_FAILED'],
      [{ ...base, failureState: 'under_maintenance' }, 'VALIDATION_FAILED'],
      [{ ...base, component: '../etc' }, 'VALIDATION_FAILED'],
      [{ ...base, url: `https://example.com/${'a'.repeat(3000)}` }, 'VALIDATION_FAILED'],
      [{ ...base, __proto__: { x: 1 }, constructor: 'x' }, 'VALIDATION_FAILED'],
    ];
    for (const [body, reason] of bad) {
      const res = await s.manage(acme, 'POST', '/checks', body);
      expect([JSON.stringify(body).slice(0, 80), res.status]).toEqual([
        JSON.stringify(body).slice(0, 80),
        400,
      ]);
      if (reason !== 'VALIDATION_FAILED') expect(res.body.value.reason).toBe(reason);
    }
    const ru = await s.manage({ ...acme, 'Language-Code': 'ru' }, 'POST', '/checks', {
      ...base,
      url: 'http://10.0.0.1/',
    });
    expect(ru.body.error).toContain('URL проверки отклонён');
    const path = await s.manage(acme, 'GET', '/checks/not-a-code');
    expect(path.status).toBe(400);
    const missing = await s.manage(acme, 'GET', '/checks/chk_aaaaaaaaaaaa');
    expect([missing.status, missing.body.value.reason]).toEqual([404, 'PUBLIC_STATUS_CHECK_NOT_FOUND']);
    const other = await s.business('other');
    const [{ id }] = await sql<{ id: string }>(`SELECT id FROM public_status.monitoring_checks LIMIT 1`);
    const probe = await s.manage(other, 'GET', `/checks/${id}`);
    expect([probe.status, probe.body.value.reason]).toEqual([404, 'PUBLIC_STATUS_CHECK_NOT_FOUND']);
    const service = await s.manage(acme, 'PUT', '/products/api/resources/web', {
      name: 'web',
      platformService: 'nope',
    });
    expect(service.status).toBe(400);
  });

  it('maps a platform app going down and up onto the resource naming it, once across replicas', async () => {
    const put = await s.manage<Resource>(acme, 'PUT', '/products/api/resources/calendar', {
      name: 'Calendar API',
      platformService: 'calendar',
    });
    expect(put.body.value.platformService).toBe('calendar');
    await sql(
      `INSERT INTO public_status.health_services (service, state, since, reason, last_report_at, last_ready_at)
       VALUES ('calendar', 'up', now(), 'reported', now(), now())
       ON CONFLICT (service) DO UPDATE SET state = 'up', since = now(), last_ready_at = now()`,
    );
    const mapping = [s.app.get(HealthMappingService), second.get(HealthMappingService)];
    await Promise.all(mapping.map((m) => m.syncOnce()));
    expect((await resource('calendar')).state).toBe('operational');
    await sql(
      `UPDATE public_status.health_services SET state = 'down', since = now() WHERE service = 'calendar'`,
    );
    const changed = await Promise.all([...mapping, ...mapping].map((m) => m.syncOnce()));
    expect(changed.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await resource('calendar')).toMatchObject({ state: 'major_outage', stateSource: 'health' });
    await sql(
      `UPDATE public_status.health_services SET state = 'up', since = now(), last_ready_at = now() WHERE service = 'calendar'`,
    );
    await Promise.all(mapping.map((m) => m.syncOnce()));
    expect(await resource('calendar')).toMatchObject({ state: 'operational', stateSource: 'health' });
    expect((await history('calendar')).slice(0, 3).map((h) => `${h.state}/${h.source}`)).toEqual([
      'operational/health',
      'major_outage/health',
      'operational/manual',
    ]);
    // Cleared mapping: the resource is no longer the health source's.
    const cleared = await s.manage<Resource>(acme, 'PUT', '/products/api/resources/calendar', {
      name: 'Calendar API',
      platformService: null,
    });
    expect(cleared.body.value.platformService).toBeNull();
  });
});
