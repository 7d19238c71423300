import { request, withClient } from '@platform/testing';
import { busyStatement } from '../../src/availability/availability.repository';
import { asAccountId } from '../../src/tenancy/tenant-ids';
import { ensureAccount, grantPermissions } from './calendar-admin';
import { startCalendar, type CalendarFixture } from './calendar-fixture';

type Ref = { kind: 'person' | 'resource'; id: string };
type Busy = { start: string; end: string; status: 'busy' | 'tentative' };
type FreeBusyValue = { items: { participant: Ref; busy: Busy[] }[]; total: number };
type SlotsValue = {
  items: { start: string; end: string; optional_free: Ref[]; optional_busy: Ref[] }[];
  total: number;
  next_cursor: string | null;
  excluded?: { start: string; end: string; reasons: { participant: Ref; reason: string }[] }[];
  total_excluded?: number;
};
type ErrorValue = {
  reason: string;
  field?: string;
  required?: string[];
  fields?: { field: string; rule: string }[];
};
type Env<T> = { success: boolean; code: number; error: string | null; value: T };

/**
 * GET /Calendar/freebusy and POST /Calendar/findSlots on real PostgreSQL: merged busy time without
 * details, who may ask, findSlots across the Berlin DST change, localised refusals, hostile input.
 */
describe('calendar availability: freebusy and findSlots (real PostgreSQL)', () => {
  let cal: CalendarFixture;
  let crm: string;
  let fb: string;
  let none: string;

  const product = (key: string, id: string, account = 'acme') => ({
    API_KEY: key,
    AccountId: account,
    ProductId: id,
  });
  const freebusy = <T = FreeBusyValue>(query: string, headers: Record<string, string>) =>
    request<Env<T>>(`${cal.base}/Calendar/freebusy?${query}`, { headers });
  const slots = <T = SlotsValue>(body: unknown, headers: Record<string, string>) =>
    request<Env<T>>(`${cal.base}/Calendar/findSlots`, { headers, body });
  const put = async (body: Record<string, unknown>, account = 'acme') => {
    const res = await request(`${cal.base}/Calendar/upsert`, {
      headers: product(crm, 'crm', account),
      body: { entity_type: 'meeting', ...body },
    });
    expect(res.status).toBe(201);
  };
  const at = (hhmm: string, day = '2026-12-01') => `${day}T${hhmm}:00.000Z`;

  beforeAll(async () => {
    cal = await startCalendar('cal_availability');
    crm = await cal.product('crm', ['Push', 'Read']);
    fb = await cal.product('fb', ['FreeBusy']);
    none = await cal.product('none', []);
    await ensureAccount(cal.app, 'other', 'Other');
    await grantPermissions(cal.app, 'other', 'crm', ['Push']);

    // 2026-12-01, account acme.
    await put({
      entity_id: 'M-1',
      title: 'Secret merger',
      location: 'Boardroom nine',
      start: { date_time: at('09:00') },
      end: { date_time: at('10:00') },
      owner: 'alice',
      assignees: ['bob'],
      resources: [{ type: 'room', id: 'r-1' }],
    });
    await put({
      entity_id: 'M-2',
      title: 'Maybe lunch',
      status: 'tentative',
      start: { date_time: at('09:30') },
      end: { date_time: at('11:00') },
      owner: 'alice',
    });
    await put({
      entity_id: 'M-3',
      title: 'Called off',
      status: 'cancelled',
      start: { date_time: at('12:00') },
      end: { date_time: at('13:00') },
      owner: 'alice',
    });
    // Transparent (iCalendar TRANSP): blocks nothing, so the expected lists below do not show it.
    await put({
      entity_id: 'M-3t',
      title: 'Reminder: send report',
      transparency: 'transparent',
      start: { date_time: at('16:00') },
      end: { date_time: at('17:00') },
      owner: 'alice',
    });
    await put({
      entity_id: 'M-4',
      title: 'Doctor',
      visibility: 'private',
      start: { date_time: at('10:30') },
      end: { date_time: at('12:00') },
      assignees: ['alice'],
    });
    await put({
      entity_id: 'M-5',
      title: 'Not asked about',
      start: { date_time: at('14:00') },
      end: { date_time: at('15:00') },
      owner: 'carol',
    });
    // Spans the end of the range: cut to it.
    await put({
      entity_id: 'M-6',
      title: 'Overnight',
      start: { date_time: at('23:00') },
      end: { date_time: at('02:00', '2026-12-02') },
      owner: 'bob',
    });
    // Another account: alice there is someone else's business.
    await put(
      {
        entity_id: 'O-1',
        title: 'Other account',
        start: { date_time: at('15:00') },
        end: { date_time: at('16:00') },
        owner: 'alice',
      },
      'other',
    );

    // Around the Berlin DST change (Sunday 2026-10-25, 03:00 CEST -> 02:00 CET), account acme.
    await put({
      entity_id: 'D-1',
      title: 'Sunday call',
      start: { date_time: '2026-10-25T10:00:00Z' },
      end: { date_time: '2026-10-25T11:00:00Z' },
      owner: 'alice',
    });
    await put({
      entity_id: 'D-2',
      title: 'Room cleaning',
      start: { date_time: '2026-10-26T08:00:00Z' },
      end: { date_time: '2026-10-26T09:00:00Z' },
      resources: [{ type: 'room', id: 'r-1' }],
    });
    await put({
      entity_id: 'D-3',
      title: 'Bob maybe',
      status: 'tentative',
      start: { date_time: '2026-10-25T12:00:00Z' },
      end: { date_time: '2026-10-25T13:00:00Z' },
      owner: 'bob',
    });
  });

  afterAll(async () => {
    await cal?.close();
  });

  describe('GET /Calendar/freebusy', () => {
    const day = 'from=2026-12-01T00:00:00Z&to=2026-12-02T00:00:00Z';
    const expected = [
      {
        participant: { kind: 'person', id: 'alice' },
        busy: [
          { start: at('09:00'), end: at('10:00'), status: 'busy' },
          // The tentative 09:30-11:00 is cut around the busy hours on both sides.
          { start: at('10:00'), end: at('10:30'), status: 'tentative' },
          { start: at('10:30'), end: at('12:00'), status: 'busy' },
        ],
      },
      {
        participant: { kind: 'person', id: 'bob' },
        busy: [
          { start: at('09:00'), end: at('10:00'), status: 'busy' },
          { start: at('23:00'), end: '2026-12-02T00:00:00.000Z', status: 'busy' },
        ],
      },
      {
        participant: { kind: 'resource', id: 'room:r-1' },
        busy: [{ start: at('09:00'), end: at('10:00'), status: 'busy' }],
      },
    ];

    it('merges busy time per participant, tentative apart, cancelled, transparent and other accounts ignored', async () => {
      const res = await freebusy(`${day}&people=alice,bob&resources=room:r-1`, product(fb, 'fb'));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, code: 200, error: null });
      expect(res.body.value).toEqual({ items: expected, total: 3 });
    });

    it('accepts repeated parameters and drops duplicates', async () => {
      const res = await freebusy(
        `${day}&people=alice&people=bob&people=alice&resources=room:r-1`,
        product(fb, 'fb'),
      );
      expect(res.body.value).toEqual({ items: expected, total: 3 });
    });

    it('never shows titles, locations, attendees, products or ids', async () => {
      const res = await freebusy(`${day}&people=alice,bob&resources=room:r-1`, product(crm, 'crm'));
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body.value);
      for (const leak of [
        'Secret',
        'Boardroom',
        'Maybe lunch',
        'Doctor',
        'M-1',
        'meeting',
        'crm',
        'title',
        'location',
        'entity',
        'owner',
        'assignees',
        'carol',
      ]) {
        expect(text).not.toContain(leak);
      }
      for (const item of res.body.value.items) {
        expect(Object.keys(item).sort()).toEqual(['busy', 'participant']);
        for (const b of item.busy) expect(Object.keys(b).sort()).toEqual(['end', 'start', 'status']);
      }
    });

    it('needs FreeBusy or Read: without either 403 CALENDAR_GRANT_MISSING', async () => {
      const denied = await freebusy<ErrorValue>(`${day}&people=alice`, product(none, 'none'));
      expect(denied.status).toBe(403);
      expect(denied.body.value).toMatchObject({
        reason: 'CALENDAR_GRANT_MISSING',
        required: ['Read', 'FreeBusy'],
      });
      expect((await freebusy(`${day}&people=alice`, product(fb, 'fb'))).status).toBe(200);
      expect((await freebusy(`${day}&people=alice`, product(crm, 'crm'))).status).toBe(200);
    });

    it("lets a person of the account see any colleague's free/busy, and nobody else's account", async () => {
      const member = { PlatformSession: await cal.session('zed') };
      const mine = await freebusy(`${day}&people=alice`, member);
      expect(mine.status).toBe(200);
      expect(mine.body.value.items).toEqual([expected[0]]);

      const stranger = { PlatformSession: await cal.session('eve', [], 'other') };
      const theirs = await freebusy(`${day}&people=alice,bob&resources=room:r-1`, stranger);
      expect(theirs.status).toBe(200);
      // Only the other account's own event: nothing of acme.
      expect(theirs.body.value.items.map((i) => i.busy)).toEqual([
        [{ start: at('15:00'), end: at('16:00'), status: 'busy' }],
        [],
        [],
      ]);
      const probing = await freebusy<ErrorValue>(`${day}&people=alice`, { ...stranger, AccountId: 'acme' });
      expect([probing.status, probing.body.value.reason]).toEqual([403, 'TENANT_MISMATCH']);
    });

    it('refuses bad ranges and empty participant lists with localised 400s', async () => {
      const tooLong = await freebusy<ErrorValue>('from=2026-01-01&to=2026-03-05&people=alice', {
        ...product(fb, 'fb'),
        'Language-Code': 'ru',
      });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.value).toMatchObject({
        reason: 'CALENDAR_AVAILABILITY_RANGE_TOO_LONG',
        field: 'to',
      });
      expect(tooLong.body.error).toBe('to: интервал может длиться не более 62 дней.');

      const backwards = await freebusy<ErrorValue>(
        'from=2026-12-02&to=2026-12-01&people=alice',
        product(fb, 'fb'),
      );
      expect([backwards.status, backwards.body.value.reason, backwards.body.value.field]).toEqual([
        400,
        'CALENDAR_AVAILABILITY_INVALID_RANGE',
        'to',
      ]);
      const beforeEpoch = await freebusy<ErrorValue>(
        'from=1900-01-01&to=1900-01-02&people=a',
        product(fb, 'fb'),
      );
      expect([beforeEpoch.status, beforeEpoch.body.value.field]).toEqual([400, 'from']);

      const nobody = await freebusy<ErrorValue>(day, { ...product(fb, 'fb'), 'Language-Code': 'es' });
      expect([nobody.status, nobody.body.value.reason]).toEqual([
        400,
        'CALENDAR_AVAILABILITY_INVALID_PARTICIPANT',
      ]);
      expect(nobody.body.error).toMatch(/^people: indique al menos un participante/);
    });

    it.each([
      ['no range', 'people=alice'],
      ['an impossible date', 'from=2026-02-30&to=2026-03-02&people=alice'],
      ['a time without offset', 'from=2026-12-01T00:00:00&to=2026-12-02T00:00:00Z&people=alice'],
      ['a NUL byte', `${'from=2026-12-01&to=2026-12-02'}&people=al%00ice`],
      ['a bad resource', 'from=2026-12-01&to=2026-12-02&resources=r-1'],
      [
        'a huge list',
        `from=2026-12-01&to=2026-12-02&people=${Array.from({ length: 201 }, (_, i) => `p${i}`).join(',')}`,
      ],
      ['an unknown parameter', 'from=2026-12-01&to=2026-12-02&people=a&__proto__=x'],
    ])('answers %s with 400, never 500', async (_name, query) => {
      const res = await freebusy<ErrorValue>(query, product(fb, 'fb'));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 400, value: { reason: 'VALIDATION_FAILED' } });
      expect(res.body.value.fields?.length).toBeGreaterThan(0);
    });

    it('reads with one indexed statement (EXPLAIN on a few thousand rows)', async () => {
      await withClient(cal.db.url, async (c) => {
        await c.query(`INSERT INTO calendar.events (account_id, product_id, entity_type, entity_id, version,
            starts_at, ends_at, status, person_ids, assignee_ids, resource_ids)
          SELECT 'acme', 'crm', 'bulk', 'B-' || g, 1,
            timestamptz '2026-01-01' + (g % 365) * interval '1 day' + (g % 10) * interval '1 hour',
            timestamptz '2026-01-01' + (g % 365) * interval '1 day' + (g % 10 + 1) * interval '1 hour',
            'confirmed', ARRAY['bulk-' || (g % 300)], ARRAY['bulk-' || (g % 300)], '{}'
          FROM generate_series(1, 6000) g`);
        await c.query('ANALYZE calendar.events');
        await c.query('SET search_path TO calendar');
        const st = busyStatement(asAccountId('acme'), {
          people: ['alice', 'bulk-1', 'bulk-2'],
          resources: ['room:r-1'],
          from: new Date('2026-06-01T00:00:00Z'),
          to: new Date('2026-06-08T00:00:00Z'),
        });
        const plan = (await c.query(`EXPLAIN ${st.sql}`, st.params)).rows
          .map((r: Record<string, string>) => r['QUERY PLAN'])
          .join('\n');
        expect(plan).not.toMatch(/Seq Scan/);
        expect(plan).toMatch(/events_account_period_idx/);
        await c.query(`DELETE FROM calendar.events WHERE entity_type = 'bulk'`);
      });
    });
  });

  describe('POST /Calendar/findSlots', () => {
    const berlin = {
      time_zone: 'Europe/Berlin',
      days: {
        sat: [{ start: '09:00', end: '17:00' }],
        sun: [{ start: '09:00', end: '17:00' }],
        mon: [{ start: '09:00', end: '17:00' }],
      },
    };
    const search = (extra: Record<string, unknown> = {}) => ({
      participants: [
        { kind: 'person', id: 'alice', working_hours: berlin },
        { kind: 'person', id: 'bob', required: false },
        { kind: 'resource', id: 'room:r-1' },
      ],
      duration_minutes: 60,
      range: { from: '2026-10-24T00:00:00Z', to: '2026-10-27T00:00:00Z' },
      buffer_before_minutes: 30,
      granularity_minutes: 60,
      max_results: 500,
      ...extra,
    });
    const hours = (day: string, from: number, to: number, skip: number[] = []) =>
      Array.from({ length: to - from + 1 }, (_, i) => from + i)
        .filter((h) => !skip.includes(h))
        .map((h) => `${day}T${String(h).padStart(2, '0')}:00:00.000Z`);
    // 09:00-17:00 Berlin is 07-15 UTC on Saturday (CEST) and 08-16 UTC from Sunday (CET). Alice's
    // Sunday call 10-11 UTC with 30 minutes before rules out 10 and 11; the room's Monday cleaning 08-09
    // rules out 08 and 09. Bob (optional) is tentatively busy on Sunday 12-13 UTC.
    const saturday = hours('2026-10-24', 7, 14);
    const sunday = hours('2026-10-25', 8, 15, [10, 11]);
    const monday = hours('2026-10-26', 10, 15);
    const bob = { kind: 'person', id: 'bob' };

    it('finds the slots of two people and a room across the DST change, ranked by optional attendance', async () => {
      const res = await slots(search(), product(fb, 'fb'));
      expect(res.status).toBe(200);
      const { items, total, next_cursor } = res.body.value;
      expect(total).toBe(20);
      expect(next_cursor).toBeNull();
      const bobBusy = ['2026-10-25T12:00:00.000Z', '2026-10-25T13:00:00.000Z'];
      const free = [...saturday, ...sunday, ...monday].filter((s) => !bobBusy.includes(s));
      expect(items.map((s) => s.start)).toEqual([...free, ...bobBusy]);
      expect(items[0]).toEqual({
        start: '2026-10-24T07:00:00.000Z',
        end: '2026-10-24T08:00:00.000Z',
        optional_free: [bob],
        optional_busy: [],
      });
      expect(items[items.length - 1]).toMatchObject({ optional_free: [], optional_busy: [bob] });
      expect(res.body.value.excluded).toBeUndefined();
    });

    it('treats tentative as free on request, and makes an optional participant required', async () => {
      const lenient = await slots(search({ tentative_as_free: true }), product(crm, 'crm'));
      expect(lenient.body.value.items.every((s) => s.optional_free.length === 1)).toBe(true);
      const strict = await slots(
        search({
          participants: [
            { kind: 'person', id: 'alice', working_hours: berlin },
            { kind: 'person', id: 'bob', required: true },
            { kind: 'resource', id: 'room:r-1' },
          ],
        }),
        product(fb, 'fb'),
      );
      expect(strict.body.value.total).toBe(18);
    });

    it('pages with next_cursor and explains rejected starts', async () => {
      const first = await slots(search({ max_results: 5, explain: true }), product(fb, 'fb'));
      expect(first.status).toBe(200);
      expect(first.body.value.items).toHaveLength(5);
      expect(first.body.value.next_cursor).toEqual(expect.any(String));
      expect(first.body.value.total_excluded).toBe(72 - 20);
      expect(first.body.value.excluded?.[0]).toEqual({
        start: '2026-10-24T00:00:00.000Z',
        end: '2026-10-24T01:00:00.000Z',
        reasons: [{ participant: { kind: 'person', id: 'alice' }, reason: 'outside_working_hours' }],
      });
      const second = await slots(
        search({ max_results: 5, cursor: first.body.value.next_cursor }),
        product(fb, 'fb'),
      );
      expect(second.body.value.items[0].start).toBe(saturday[5]);

      const all = await slots(search({ explain: true }), product(fb, 'fb'));
      const sundayCall = all.body.value.excluded?.find((x) => x.start === '2026-10-25T10:00:00.000Z');
      expect(sundayCall?.reasons).toEqual([{ participant: { kind: 'person', id: 'alice' }, reason: 'busy' }]);
      const cleaning = all.body.value.excluded?.find((x) => x.start === '2026-10-26T08:00:00.000Z');
      expect(cleaning?.reasons).toEqual([
        { participant: { kind: 'resource', id: 'room:r-1' }, reason: 'busy' },
      ]);
    });

    it('sees busy time just outside the range through the buffers', async () => {
      // Alice's Sunday call ends at 11:00 UTC; a range from 11:00 with 30 minutes before must skip 11:00.
      const res = await slots(
        search({
          participants: [{ kind: 'person', id: 'alice' }],
          range: { from: '2026-10-25T11:00:00Z', to: '2026-10-25T13:00:00Z' },
        }),
        product(fb, 'fb'),
      );
      expect(res.body.value.items.map((s) => s.start)).toEqual(['2026-10-25T12:00:00.000Z']);
    });

    it('needs FreeBusy or Read, like free/busy, and is open to every person of the account', async () => {
      const denied = await slots<ErrorValue>(search(), product(none, 'none'));
      expect([denied.status, denied.body.value.reason]).toEqual([403, 'CALENDAR_GRANT_MISSING']);
      const member = await slots(search(), { PlatformSession: await cal.session('zed') });
      expect(member.body.value.total).toBe(20);
      // The other account has no busy time for these ids on these days: every working hour is a slot.
      const stranger = await slots(search(), { PlatformSession: await cal.session('eve', [], 'other') });
      expect(stranger.body.value.total).toBe(24);
    });

    it.each([
      [{ duration_minutes: 0 }, 'CALENDAR_AVAILABILITY_INVALID_DURATION', 'duration_minutes'],
      [{ buffer_after_minutes: 241 }, 'CALENDAR_AVAILABILITY_INVALID_BUFFER', 'buffer_after_minutes'],
      [{ granularity_minutes: 7 }, 'CALENDAR_AVAILABILITY_INVALID_GRANULARITY', 'granularity_minutes'],
      [{ max_results: 0 }, 'CALENDAR_AVAILABILITY_INVALID_MAX_RESULTS', 'max_results'],
      [{ cursor: 'v9.bogus' }, 'CALENDAR_AVAILABILITY_INVALID_CURSOR', 'cursor'],
      [
        { range: { from: '2026-10-01T00:00:00Z', to: '2026-11-05T00:00:00Z' } },
        'CALENDAR_AVAILABILITY_RANGE_TOO_LONG',
        'range',
      ],
      [
        { range: { from: '2026-10-02T00:00:00Z', to: '2026-10-01T00:00:00Z' } },
        'CALENDAR_AVAILABILITY_INVALID_RANGE',
        'range',
      ],
      [
        {
          participants: [
            { kind: 'person', id: 'a' },
            { kind: 'person', id: 'a' },
          ],
        },
        'CALENDAR_AVAILABILITY_DUPLICATE_PARTICIPANT',
        'participants.1.id',
      ],
      [
        { participants: [{ kind: 'resource', id: 'r-1' }] },
        'CALENDAR_AVAILABILITY_INVALID_PARTICIPANT',
        'participants.0.id',
      ],
      [
        { participants: [{ kind: 'person', id: 'a', working_hours: { time_zone: 'Mars/Base', days: {} } }] },
        'CALENDAR_AVAILABILITY_INVALID_TIME_ZONE',
        'participants.0.working_hours.time_zone',
      ],
      [
        { participants: [{ kind: 'person', id: 'a', working_hours: { time_zone: '+05:00', days: {} } }] },
        'CALENDAR_AVAILABILITY_INVALID_TIME_ZONE',
        'participants.0.working_hours.time_zone',
      ],
      [
        {
          participants: [
            {
              kind: 'person',
              id: 'a',
              working_hours: { time_zone: 'UTC', days: { mon: [{ start: '25:00', end: '26:00' }] } },
            },
          ],
        },
        'CALENDAR_AVAILABILITY_INVALID_WALL_TIME',
        'participants.0.working_hours.days.mon.0.start',
      ],
      [
        {
          participants: [
            {
              kind: 'person',
              id: 'a',
              working_hours: { time_zone: 'UTC', days: { mon: [{ start: '10:00', end: '09:00' }] } },
            },
          ],
        },
        'CALENDAR_AVAILABILITY_EMPTY_SPAN',
        'participants.0.working_hours.days.mon.0',
      ],
      [
        {
          participants: [
            {
              kind: 'person',
              id: 'a',
              working_hours: {
                time_zone: 'UTC',
                days: {
                  tue: [
                    { start: '09:00', end: '12:00' },
                    { start: '11:00', end: '13:00' },
                  ],
                },
              },
            },
          ],
        },
        'CALENDAR_AVAILABILITY_OVERLAPPING_SPANS',
        'participants.0.working_hours.days.tue',
      ],
    ])('refuses %j with a coded 400', async (extra, reason, field) => {
      const res = await slots<ErrorValue>(search(extra), product(fb, 'fb'));
      expect(res.status).toBe(400);
      expect(res.body.value).toMatchObject({ reason, field });
      expect(res.body.error).toContain(`${field}:`);
    });

    it('says why in Russian', async () => {
      const res = await slots<ErrorValue>(search({ duration_minutes: 2000 }), {
        ...product(fb, 'fb'),
        'Language-Code': 'ru',
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('duration_minutes: длительность — целое число минут от 1 до 1440.');
    });

    it.each([
      ['a NUL byte in an id', JSON.stringify(search({ participants: [{ kind: 'person', id: 'a\u0000b' }] }))],
      [
        'a huge number',
        JSON.stringify(search()).replace('"duration_minutes":60', '"duration_minutes":1e300'),
      ],
      ['a fraction', JSON.stringify(search({ granularity_minutes: 15.5 }))],
      ['a string number', JSON.stringify(search({ duration_minutes: '60' }))],
      [
        'an impossible date',
        JSON.stringify(search({ range: { from: '2026-02-30T00:00:00Z', to: '2026-03-02T00:00:00Z' } })),
      ],
      ['a missing range', JSON.stringify({ participants: [], duration_minutes: 30 })],
      ['nobody to search for', JSON.stringify(search({ participants: [] }))],
      ['__proto__ at the top', JSON.stringify(search()).replace(/^\{/, '{"__proto__":{"explain":true},')],
      [
        '__proto__ among the days',
        JSON.stringify(
          search({
            participants: [
              { kind: 'person', id: 'a', working_hours: { time_zone: 'UTC', days: { mon: [] } } },
            ],
          }),
        ).replace('"days":{', '"days":{"__proto__":[{"start":"00:00","end":"24:00"}],'),
      ],
      [
        'an unknown weekday',
        JSON.stringify(
          search({
            participants: [
              { kind: 'person', id: 'a', working_hours: { time_zone: 'UTC', days: { monday: [] } } },
            ],
          }),
        ),
      ],
      [
        'working hours as a string',
        JSON.stringify(search({ participants: [{ kind: 'person', id: 'a', working_hours: 'always' }] })),
      ],
      ['participants as an object', JSON.stringify(search({ participants: { kind: 'person', id: 'a' } }))],
      ['an unknown kind', JSON.stringify(search({ participants: [{ kind: 'team', id: 'a' }] }))],
      ['a non-boolean flag', JSON.stringify(search({ explain: 'yes' }))],
      [
        'too many participants',
        JSON.stringify(
          search({ participants: Array.from({ length: 501 }, (_, i) => ({ kind: 'person', id: `p${i}` })) }),
        ),
      ],
      ['an array body', '[]'],
      ['not JSON', '{"participants":'],
    ])('answers %s with 400, never 500', async (_name, body) => {
      const res = await slots<ErrorValue>(body, product(fb, 'fb'));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 400 });
      // Field errors name the field; only a body that is not JSON at all has none to name.
      if (body.startsWith('{"participants":') && !body.endsWith('}')) {
        expect(res.body.value.reason).toBe('MALFORMED_BODY');
      } else {
        expect(res.body.value.reason).toBe('VALIDATION_FAILED');
        expect(res.body.value.fields?.length).toBeGreaterThan(0);
      }
    });
  });
});
