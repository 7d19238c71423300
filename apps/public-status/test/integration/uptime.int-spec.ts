import { withClient } from '@platform/testing';
import { UptimeService } from '../../src/uptime/uptime.service';
import { startStatus, type StatusFixture } from './status-fixture';

type Series = {
  id: string;
  uptime: number | null;
  days: { date: string; uptime: number | null; seconds?: Record<string, number> }[];
};

const H = 3600;
const at = (day: string, hour: number) => `2026-01-${day}T${String(hour).padStart(2, '0')}:00:00Z`;

/**
 * Uptime math on a constructed history across a day boundary, with maintenance: live from the
 * history, then from rollups (idempotent, concurrent, corrected by a new revision), and the hash
 * chains detecting a rewrite made directly in SQL.
 */
describe('public-status uptime and hash chains (real PostgreSQL)', () => {
  let s: StatusFixture;
  let mgr: Record<string, string>;
  let r1: string;
  let r2: string;
  const uptime = () => s.app.get(UptimeService);

  beforeAll(async () => {
    s = await startStatus('ps_uptime');
    mgr = await s.business('acme');
    await s.manage(mgr, 'PUT', '/business', { published: true });
    await s.manage(mgr, 'PUT', '/products/api', { name: 'API', published: true });
    await withClient(s.db.url, async (c) => {
      const product = (await c.query<{ id: string }>(`SELECT id FROM public_status.products`)).rows[0].id;
      const resource = async (slug: string) =>
        (
          await c.query<{ id: string }>(
            `INSERT INTO public_status.resources (business_id, product_id, slug, name, published, state_since, created_at)
             VALUES ('acme', $1, $2, $2, true, $3, $3) RETURNING id`,
            [product, slug, at('10', 0)],
          )
        ).rows[0].id;
      [r1, r2] = [await resource('r1'), await resource('r2')];
      const spans: [string, string, string, string | null][] = [
        // r1: op 12 h, major 6 h, partial 6 h | partial 2 h, maintenance 4 h, op 18 h
        [r1, 'operational', at('10', 0), at('10', 12)],
        [r1, 'major_outage', at('10', 12), at('10', 18)],
        [r1, 'partial_outage', at('10', 18), at('11', 2)],
        [r1, 'under_maintenance', at('11', 2), at('11', 6)],
        [r1, 'operational', at('11', 6), null],
        // r2: degraded 3 h on day 1 (counts as up); major 2 h on day 2
        [r2, 'operational', at('10', 0), at('10', 12)],
        [r2, 'degraded_performance', at('10', 12), at('10', 15)],
        [r2, 'operational', at('10', 15), at('11', 1)],
        [r2, 'major_outage', at('11', 1), at('11', 3)],
        [r2, 'operational', at('11', 3), null],
      ];
      for (const [id, state, from, to] of spans)
        await c.query(
          `INSERT INTO public_status.state_history (business_id, resource_id, state, source, started_at, ended_at)
           VALUES ('acme', $1, $2, 'manual', $3, $4)`,
          [id, state, from, to],
        );
    });
  });

  afterAll(async () => {
    await s?.close();
  });

  const productUptime = async () => {
    const res = await s.get<{ product: Series; components: Series[] }>(
      'ProductUptime?business=acme&product=api&from=2026-01-10&to=2026-01-11',
    );
    expect(res.status).toBe(200);
    return res.body.value;
  };

  const EXPECTED = {
    // day 1: down 6 h + 0.3 x 6 h = 7.8 h of 24 -> 67.5 %; day 2: 0.3 x 2 h of 20 counted (4 h maintenance) -> 97 %
    r1: { uptime: 80.9, days: [67.5, 97] },
    r2: { uptime: 95.83, days: [100, 91.66] },
    // worst at each moment; day 2: 00-01 partial, 01-03 major (beats r1's partial and maintenance),
    // 03-06 maintenance, 06-24 operational: down 2.3 h of 21 counted -> 89.04 %; both days 10.1 h of 45
    product: { uptime: 77.55, days: [67.5, 89.04] },
  };

  /** The series of one component; fails the test when it is missing. */
  function byId(list: Series[], id: string): Series {
    const found = list.find((c) => c.id === id);
    if (!found) throw new Error(`no series ${id}`);
    return found;
  }

  const summary = (x: Series) => ({ uptime: x.uptime, days: x.days.map((d) => d.uptime) });

  it('computes resource and product uptime from the history, live, across midnight and maintenance', async () => {
    const v = await productUptime();
    expect(summary(byId(v.components, 'api/r1'))).toEqual(EXPECTED.r1);
    expect(summary(byId(v.components, 'api/r2'))).toEqual(EXPECTED.r2);
    expect(summary(v.product)).toEqual(EXPECTED.product);
    expect(byId(v.components, 'api/r1').days[1].seconds).toEqual({
      operational: 18 * H,
      degraded_performance: 0,
      partial_outage: 2 * H,
      major_outage: 0,
      under_maintenance: 4 * H,
    });
  });

  it('rolls up days idempotently, even from two replicas at once, and reads the same figures from them', async () => {
    const [a, b] = await Promise.all([
      uptime().rollup('2026-01-09', '2026-01-11'),
      uptime().rollup('2026-01-09', '2026-01-11'),
    ]);
    expect(a.inserted + b.inserted).toBe(4);
    expect((await uptime().rollup('2026-01-09', '2026-01-11')).inserted).toBe(0);
    const rows = await withClient(
      s.db.url,
      async (c) =>
        (
          await c.query(
            `SELECT resource_id, day::text, revision FROM public_status.uptime_daily ORDER BY resource_id, day`,
          )
        ).rows,
    );
    expect(rows).toHaveLength(4);
    const v = await productUptime();
    expect(summary(byId(v.components, 'api/r1'))).toEqual(EXPECTED.r1);
    expect(summary(v.product)).toEqual(EXPECTED.product);
  });

  it('serves a year of UptimeHistory from the rollups', async () => {
    const res = await s.get<{
      range: { from: string; to: string };
      products: (Series & { components: Series[] })[];
    }>('UptimeHistory?business=acme&from=2025-11-24&to=2026-11-23');
    expect(res.status).toBe(200);
    expect(res.body.value.range).toEqual({ from: '2025-11-24', to: '2026-11-23' });
    const r1Days = byId(res.body.value.products[0].components, 'api/r1').days;
    expect(r1Days).toHaveLength(365);
    expect(
      r1Days.filter((d) => d.date === '2026-01-10' || d.date === '2026-01-11').map((d) => d.uptime),
    ).toEqual([67.5, 97]);
    expect(r1Days.find((d) => d.date === '2026-01-09')?.uptime).toBeNull();
  });

  it('appends a correction as the next revision when the history of a rolled-up day changes', async () => {
    await withClient(s.db.url, async (c) => {
      // A late correction of the history (checks backfilled): the major outage was 3 h, not 6 h.
      await c.query(`ALTER TABLE public_status.state_history DISABLE TRIGGER state_history_append_only`);
      await c.query(
        `UPDATE public_status.state_history SET ended_at = $2 WHERE resource_id = $1 AND state = 'major_outage'`,
        [r1, at('10', 15)],
      );
      await c.query(
        `UPDATE public_status.state_history SET started_at = $2 WHERE resource_id = $1 AND state = 'partial_outage'`,
        [r1, at('10', 15)],
      );
      await c.query(`ALTER TABLE public_status.state_history ENABLE TRIGGER state_history_append_only`);
    });
    expect((await uptime().rollup('2026-01-10', '2026-01-11')).inserted).toBe(1);
    const revisions = await withClient(
      s.db.url,
      async (c) =>
        (
          await c.query(
            `SELECT revision, major_s FROM public_status.uptime_daily WHERE resource_id = $1 AND day = '2026-01-10' ORDER BY revision`,
            [r1],
          )
        ).rows,
    );
    expect(revisions).toEqual([
      { revision: 1, major_s: 6 * H },
      { revision: 2, major_s: 3 * H },
    ]);
    const v = await productUptime();
    // 3 h major + 0.3 x 9 h partial = 5.7 h of 24 -> 76.25 %
    expect(byId(v.components, 'api/r1').days[0].uptime).toBe(76.25);
  });

  it('verifies the chains, and a row rewritten in SQL (bypassing the append-only trigger) breaks them', async () => {
    const opened = await s.manage<{ id: string }>(mgr, 'POST', '/incidents', {
      name: 'Outage',
      impact: 'major',
      body: 'one',
    });
    const id = opened.body.value.id;
    await s.manage(mgr, 'POST', `/incidents/${id}/updates`, { status: 'identified', body: 'two' });
    await s.manage(mgr, 'POST', `/incidents/${id}/resolve`, { body: 'three' });
    const clean = await s.manage<{
      incidents: { checked: number; broken: unknown[] };
      uptime: { checked: number; broken: unknown[] };
    }>(mgr, 'GET', '/chains/verify');
    expect(clean.body.value).toEqual({
      incidents: { checked: 1, broken: [] },
      uptime: { checked: 2, broken: [] },
    });
    const heads = await s.get<{
      incidents: { id: string; length: number; head: string }[];
      uptime: { id: string; length: number }[];
    }>('ChainHeads?business=acme');
    expect(heads.body.value.incidents).toEqual([
      { id, length: 3, head: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(heads.body.value.uptime.map((u) => [u.id, u.length])).toEqual([
      ['api/r1', 3],
      ['api/r2', 2],
    ]);

    await withClient(s.db.url, async (c) => {
      await expect(c.query(`UPDATE public_status.incident_updates SET body = 'x'`)).rejects.toThrow(
        /append-only/,
      );
      await expect(c.query(`DELETE FROM public_status.uptime_daily`)).rejects.toThrow(/append-only/);
      for (const t of ['incident_updates', 'uptime_daily'])
        await c.query(`ALTER TABLE public_status.${t} DISABLE TRIGGER ${t}_append_only`);
      await c.query(`UPDATE public_status.incident_updates SET body = 'nothing happened' WHERE seq = 2`);
      await c.query(
        `UPDATE public_status.uptime_daily SET major_s = 0 WHERE resource_id = $1 AND revision = 1`,
        [r1],
      );
    });
    const broken = await s.manage<{ incidents: { broken: unknown[] }; uptime: { broken: unknown[] } }>(
      mgr,
      'GET',
      '/chains/verify',
    );
    expect(broken.body.value.incidents.broken).toEqual([{ chain: id, at: 'seq 2' }]);
    expect(broken.body.value.uptime.broken).toEqual([{ chain: 'api/r1', at: '2026-01-10 r1' }]);
  });
});
