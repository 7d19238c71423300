import { request, withClient } from '@platform/testing';
import { startCalendar, type CalendarFixture } from './calendar-fixture';

type Env<T = Record<string, unknown>> = {
  success: boolean;
  code: number;
  error: string | null;
  value: T & { reason?: string };
};
type Time = { date_time?: string; time_zone?: string; date?: string };
type Occ = {
  recurrence_id: string;
  start: Time;
  end: Time;
  status: string;
  overridden: boolean;
  moved: boolean;
};
type Expanded = { items: Occ[]; total: number; next_cursor: string | null; truncated: string | null };
type Item = Record<string, unknown> & { start: Time; end: Time; title?: string; recurrence_id?: string };
type Page = { items: Item[]; total: number };

/**
 * Recurrence end to end (issue 10, decision 0016): write-time validation, `/Calendar/expand`, and the
 * occurrences in the week query and in free/busy, on real PostgreSQL.
 */
describe('calendar recurrence (real PostgreSQL)', () => {
  let fx: CalendarFixture;
  let base: string;
  let crm: string;
  let busy: string;

  const as = (key: string, product: string, extra: Record<string, string> = {}) => ({
    API_KEY: key,
    AccountId: 'acme',
    ProductId: product,
    ...extra,
  });
  const upsert = (body: Record<string, unknown>, headers = as(crm, 'crm')) =>
    request<Env<Item & { overrides: unknown[] }>>(`${base}/Calendar/upsert`, {
      headers,
      body: { entity_type: 'meeting', ...body },
    });
  const get = <T>(path: string, headers: Record<string, string> = as(crm, 'crm')) =>
    request<Env<T>>(`${base}${path}`, { headers });
  const expand = (id: string, from: string, to: string, extra = '', headers?: Record<string, string>) =>
    get<Expanded>(
      `/Calendar/expand?entity_type=meeting&entity_id=${id}&from=${from}&to=${to}${extra}`,
      headers,
    );
  const starts = (r: { body: Env<Expanded> }) =>
    r.body.value.items.map((o) => o.start.date_time ?? o.start.date);
  const put = async (body: Record<string, unknown>) => {
    const res = await upsert(body);
    expect([res.status, res.body.value]).toEqual([201, expect.anything()]);
    return res.body.value;
  };

  beforeAll(async () => {
    fx = await startCalendar('calendar_recurrence', { CALENDAR_WRITE_LIMIT: '100000' });
    base = fx.base;
    crm = await fx.product('crm', ['Push', 'Read']);
    busy = await fx.product('busy', ['FreeBusy']);
  });

  afterAll(async () => {
    await fx?.close();
  });

  describe('times as the caller can use them', () => {
    it('answers an event sent at 10:00+05:00 in Asia/Almaty as 10:00+05:00, not 05:00Z', async () => {
      const e = await put({
        entity_id: 'ALMATY',
        start: { date_time: '2026-12-01T10:00:00+05:00', time_zone: 'Asia/Almaty' },
        end: { date_time: '2026-12-01T11:00:00+05:00', time_zone: 'Asia/Almaty' },
      });
      expect(e.start).toEqual({ date_time: '2026-12-01T10:00:00+05:00', time_zone: 'Asia/Almaty' });
      expect(e.end).toEqual({ date_time: '2026-12-01T11:00:00+05:00', time_zone: 'Asia/Almaty' });
      // The same in reads; an event without a zone stays UTC.
      const read = await get<Page>('/Calendar/listByEntity?entity_type=meeting&entity_id=ALMATY');
      expect(read.body.value.items[0].start).toEqual(e.start);
      const utc = await put({ entity_id: 'UTC-ONLY', start: { date_time: '2026-12-01T10:00:00+05:00' } });
      expect(utc.start).toEqual({ date_time: '2026-12-01T05:00:00.000Z' });
    });
  });

  describe('expand', () => {
    it('keeps a weekly 09:00 Europe/Berlin meeting at 09:00 local across both DST changes', async () => {
      await put({
        entity_id: 'BERLIN',
        start: { date_time: '2026-03-16T09:00:00+01:00', time_zone: 'Europe/Berlin' },
        end: { date_time: '2026-03-16T10:00:00+01:00', time_zone: 'Europe/Berlin' },
        recurrence: ['RRULE:FREQ=WEEKLY'],
      });
      const spring = await expand('BERLIN', '2026-03-16T00:00:00Z', '2026-04-07T00:00:00Z');
      expect(spring.status).toBe(200);
      expect(spring.body.value.items).toEqual([
        {
          recurrence_id: '2026-03-16T08:00:00Z',
          start: { date_time: '2026-03-16T09:00:00+01:00', time_zone: 'Europe/Berlin' },
          end: { date_time: '2026-03-16T10:00:00+01:00', time_zone: 'Europe/Berlin' },
          status: 'confirmed',
          overridden: false,
          moved: false,
        },
        expect.objectContaining({
          start: { date_time: '2026-03-23T09:00:00+01:00', time_zone: 'Europe/Berlin' },
        }),
        // After the change of 29 March: still 09:00, now at +02:00 (07:00 UTC).
        expect.objectContaining({
          recurrence_id: '2026-03-30T07:00:00Z',
          start: { date_time: '2026-03-30T09:00:00+02:00', time_zone: 'Europe/Berlin' },
          end: { date_time: '2026-03-30T10:00:00+02:00', time_zone: 'Europe/Berlin' },
        }),
        expect.objectContaining({
          start: { date_time: '2026-04-06T09:00:00+02:00', time_zone: 'Europe/Berlin' },
        }),
      ]);
      expect(spring.body.value).toMatchObject({ total: 4, next_cursor: null, truncated: null });
      const autumn = await expand('BERLIN', '2026-10-19T00:00:00Z', '2026-11-03T00:00:00Z');
      expect(starts(autumn)).toEqual([
        '2026-10-19T09:00:00+02:00',
        '2026-10-26T09:00:00+01:00',
        '2026-11-02T09:00:00+01:00',
      ]);
    });

    it('does the same for America/New_York', async () => {
      await put({
        entity_id: 'NEW-YORK',
        start: { date_time: '2026-02-23T09:00:00-05:00', time_zone: 'America/New_York' },
        end: { date_time: '2026-02-23T09:30:00-05:00', time_zone: 'America/New_York' },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO'],
      });
      const spring = await expand('NEW-YORK', '2026-03-01T00:00:00Z', '2026-03-17T00:00:00Z');
      expect(starts(spring)).toEqual([
        '2026-03-02T09:00:00-05:00',
        '2026-03-09T09:00:00-04:00',
        '2026-03-16T09:00:00-04:00',
      ]);
      expect(spring.body.value.items[1].recurrence_id).toBe('2026-03-09T13:00:00Z');
      const autumn = await expand('NEW-YORK', '2026-10-26T00:00:00Z', '2026-11-10T00:00:00Z');
      expect(starts(autumn)).toEqual([
        '2026-10-26T09:00:00-04:00',
        '2026-11-02T09:00:00-05:00',
        '2026-11-09T09:00:00-05:00',
      ]);
    });

    it('skips months without a 31st and years without a 29 February', async () => {
      await put({
        entity_id: 'MONTH-END',
        start: { date_time: '2026-01-31T10:00:00Z', time_zone: 'UTC' },
        recurrence: ['RRULE:FREQ=MONTHLY'],
      });
      const months = await expand('MONTH-END', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z');
      expect(starts(months).map((s) => s?.slice(0, 10))).toEqual([
        '2026-01-31',
        '2026-03-31',
        '2026-05-31',
        '2026-07-31',
        '2026-08-31',
        '2026-10-31',
        '2026-12-31',
      ]);
      await put({ entity_id: 'LEAP', start: { date: '2024-02-29' }, recurrence: ['RRULE:FREQ=YEARLY'] });
      const years = async (from: string, to: string) => starts(await expand('LEAP', from, to));
      expect(await years('2024-01-01', '2024-12-31')).toEqual(['2024-02-29']);
      expect(await years('2025-01-01', '2026-01-01')).toEqual([]);
      expect(await years('2027-06-01', '2028-06-01')).toEqual(['2028-02-29']);
      const leap = await expand('LEAP', '2028-02-01', '2028-03-01');
      expect(leap.body.value.items[0]).toEqual({
        recurrence_id: '2028-02-29',
        start: { date: '2028-02-29' },
        end: { date: '2028-03-01' },
        status: 'confirmed',
        overridden: false,
        moved: false,
      });
    });

    it('bounds an infinite rule and pages it with the cursor to the same sequence as one call', async () => {
      await put({
        entity_id: 'DAILY',
        start: { date_time: '2026-01-01T08:00:00+01:00', time_zone: 'Europe/Berlin' },
        end: { date_time: '2026-01-01T08:15:00+01:00', time_zone: 'Europe/Berlin' },
        recurrence: ['RRULE:FREQ=DAILY'],
      });
      const range = ['2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'] as const;
      const all = await expand('DAILY', ...range, '&limit=1000');
      expect(all.body.value).toMatchObject({ total: 365, next_cursor: null });
      expect(all.body.value.items).toHaveLength(365);
      const paged: Occ[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { body: Env<Expanded> } = await expand(
          'DAILY',
          ...range,
          `&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.body.value.total).toBe(365);
        expect(page.body.value.items.length).toBeLessThanOrEqual(100);
        paged.push(...page.body.value.items);
        cursor = page.body.value.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages).toBe(4);
      expect(paged).toEqual(all.body.value.items);
      // The default page is 100; the range is required and bounded.
      expect((await expand('DAILY', ...range)).body.value.items).toHaveLength(100);
      const tooLong = await expand('DAILY', '2026-01-01T00:00:00Z', '2027-01-03T00:00:00Z');
      expect([tooLong.status, tooLong.body.value.reason]).toEqual([400, 'CALENDAR_INVALID_RANGE']);
      const noRange = await get<Expanded>('/Calendar/expand?entity_type=meeting&entity_id=DAILY');
      expect(noRange.status).toBe(400);
      const badCursor = await expand('DAILY', ...range, '&cursor=not-a-cursor');
      expect([badCursor.status, badCursor.body.value.reason]).toEqual([
        400,
        'CALENDAR_EXPAND_CURSOR_INVALID',
      ]);
      expect((await expand('DAILY', ...range, '&limit=1001')).status).toBe(400);
    });

    it('removes EXDATEs and adds RDATEs', async () => {
      await put({
        entity_id: 'EX-R',
        start: { date_time: '2026-05-04T09:00:00+02:00', time_zone: 'Europe/Berlin' },
        end: { date_time: '2026-05-04T10:00:00+02:00', time_zone: 'Europe/Berlin' },
        recurrence: [
          'RRULE:FREQ=DAILY;COUNT=5',
          'EXDATE;TZID=Europe/Berlin:20260506T090000',
          'RDATE;TZID=Europe/Berlin:20260510T150000',
        ],
      });
      const r = await expand('EX-R', '2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z');
      expect(starts(r)).toEqual([
        '2026-05-04T09:00:00+02:00',
        '2026-05-05T09:00:00+02:00',
        '2026-05-07T09:00:00+02:00',
        '2026-05-08T09:00:00+02:00',
        '2026-05-10T15:00:00+02:00',
      ]);
      expect(r.body.value.total).toBe(5);
    });

    it('expands a plain event to its one instance when it overlaps the range', async () => {
      const one = await expand('ALMATY', '2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z');
      expect(one.body.value).toEqual({
        items: [
          {
            recurrence_id: '2026-12-01T05:00:00Z',
            start: { date_time: '2026-12-01T10:00:00+05:00', time_zone: 'Asia/Almaty' },
            end: { date_time: '2026-12-01T11:00:00+05:00', time_zone: 'Asia/Almaty' },
            status: 'confirmed',
            overridden: false,
            moved: false,
          },
        ],
        total: 1,
        next_cursor: null,
        truncated: null,
      });
      const none = await expand('ALMATY', '2026-12-02T00:00:00Z', '2026-12-03T00:00:00Z');
      expect(none.body.value).toMatchObject({ items: [], total: 0 });
      const missing = await expand('NOPE', '2026-12-02T00:00:00Z', '2026-12-03T00:00:00Z');
      expect([missing.status, missing.body.value.reason]).toEqual([404, 'CALENDAR_EVENT_NOT_FOUND']);
    });
  });

  describe('overrides', () => {
    const weekly = {
      entity_id: 'OVR',
      title: 'Weekly sync',
      owner: 'olga',
      start: { date_time: '2026-06-01T09:00:00+02:00', time_zone: 'Europe/Berlin' },
      end: { date_time: '2026-06-01T10:00:00+02:00', time_zone: 'Europe/Berlin' },
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      overrides: [
        { recurrence_id: '2026-06-08T07:00:00Z', cancelled: true },
        {
          recurrence_id: '2026-06-15T09:00:00+02:00',
          start: { date_time: '2026-06-17T14:00:00+02:00', time_zone: 'Europe/Berlin' },
        },
      ],
    };

    it('stores them with the series and shows them in responses and 409 diffs', async () => {
      const e = await put(weekly);
      expect(e.overrides).toEqual(weekly.overrides);
      const stale = await upsert({ ...weekly, version: 0, overrides: [] });
      expect(stale.status).toBe(409);
      const value = stale.body.value as unknown as {
        current: { overrides: unknown };
        diff: { field: string }[];
      };
      expect(value.current.overrides).toEqual(weekly.overrides);
      expect(value.diff.map((d) => d.field)).toEqual(['overrides']);
    });

    it('moves and cancels single occurrences in expand, ranged by their new time', async () => {
      const r = await expand('OVR', '2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z');
      expect(r.body.value.items).toEqual([
        expect.objectContaining({ recurrence_id: '2026-06-01T07:00:00Z', overridden: false }),
        {
          recurrence_id: '2026-06-15T07:00:00Z',
          start: { date_time: '2026-06-17T14:00:00+02:00', time_zone: 'Europe/Berlin' },
          end: { date_time: '2026-06-17T15:00:00+02:00', time_zone: 'Europe/Berlin' },
          status: 'confirmed',
          overridden: true,
          moved: true,
        },
        expect.objectContaining({ recurrence_id: '2026-06-22T07:00:00Z', moved: false }),
      ]);
      expect(r.body.value.total).toBe(3);
      expect(starts(await expand('OVR', '2026-06-16T00:00:00Z', '2026-06-18T00:00:00Z'))).toEqual([
        '2026-06-17T14:00:00+02:00',
      ]);
      expect(starts(await expand('OVR', '2026-06-15T00:00:00Z', '2026-06-16T00:00:00Z'))).toEqual([]);
      expect(starts(await expand('OVR', '2026-06-08T00:00:00Z', '2026-06-09T00:00:00Z'))).toEqual([]);
    });

    it('refuses overrides that do not fit the series', async () => {
      const dup = await upsert({
        ...weekly,
        entity_id: 'OVR-BAD',
        overrides: [
          { recurrence_id: '2026-06-08T07:00:00Z', cancelled: true },
          { recurrence_id: '2026-06-08T09:00:00+02:00', cancelled: true },
        ],
      });
      expect([dup.status, dup.body.value.reason]).toEqual([400, 'CALENDAR_RECURRENCE_OVERRIDE_INVALID']);
      expect(dup.body.value).toMatchObject({ recurrence: { reason: 'DUPLICATE_RECURRENCE_ID' } });
      const noStart = await upsert({
        ...weekly,
        entity_id: 'OVR-BAD',
        overrides: [{ recurrence_id: '2026-06-08T07:00:00Z' }],
      });
      expect([noStart.status, noStart.body.value.reason]).toEqual([
        400,
        'CALENDAR_RECURRENCE_OVERRIDE_INVALID',
      ]);
      const tooMany = await upsert({
        ...weekly,
        entity_id: 'OVR-BAD',
        overrides: Array.from({ length: 1001 }, (_, i) => ({
          recurrence_id: new Date(Date.UTC(2026, 0, 1) + i * 86400000).toISOString(),
          cancelled: true,
        })),
      });
      expect(tooMany.status).toBe(400);
    });
  });

  describe('occurrences in the week query and in free/busy', () => {
    const week = 'from=2026-06-01T00:00:00Z&to=2026-06-08T00:00:00Z';
    const daily = (person: string, id: string) => ({
      entity_id: id,
      title: 'Daily stand-up',
      owner: person,
      start: { date_time: '2026-05-25T12:00:00Z', time_zone: 'UTC' },
      end: { date_time: '2026-05-25T13:00:00Z', time_zone: 'UTC' },
      recurrence: ['RRULE:FREQ=DAILY'],
      overrides: [
        { recurrence_id: '2026-06-03T12:00:00Z', cancelled: true },
        {
          recurrence_id: '2026-06-04T12:00:00Z',
          start: { date_time: '2026-06-04T18:00:00Z', time_zone: 'UTC' },
        },
      ],
    });

    beforeAll(async () => {
      await put(daily('wq', 'WQ-DAILY'));
      await put({
        entity_id: 'WQ-WEEKLY',
        title: 'Weekly review',
        owner: 'wq',
        start: { date_time: '2026-05-26T09:00:00+02:00', time_zone: 'Europe/Berlin' },
        end: { date_time: '2026-05-26T10:00:00+02:00', time_zone: 'Europe/Berlin' },
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      });
      for (const [i, at] of [
        '2026-06-01T08:00',
        '2026-06-02T12:00',
        '2026-06-04T18:00',
        '2026-06-06T07:00',
        '2026-06-09T07:00',
      ].entries()) {
        await put({
          entity_id: `WQ-PLAIN-${i}`,
          title: `plain ${i}`,
          owner: 'wq',
          start: { date_time: `${at}:00Z` },
          end: {
            date_time: `${at.slice(0, 11)}${String(Number(at.slice(11, 13)) + 1).padStart(2, '0')}:30:00Z`,
          },
        });
      }
      await put(daily('fb', 'FB-DAILY'));
    });

    it('lists each occurrence in range, moved ones at their new time, cancelled ones not at all', async () => {
      const all = await get<Page>(`/Calendar/events?${week}&person=wq&limit=250`);
      expect(all.status).toBe(200);
      const { items, total } = all.body.value;
      expect(items.map((i) => [i.title, i.start.date_time, i.recurrence_id ?? null])).toEqual([
        ['plain 0', '2026-06-01T08:00:00.000Z', null],
        ['Daily stand-up', '2026-06-01T12:00:00+00:00', '2026-06-01T12:00:00Z'],
        ['Weekly review', '2026-06-02T09:00:00+02:00', '2026-06-02T07:00:00Z'],
        ['Daily stand-up', '2026-06-02T12:00:00+00:00', '2026-06-02T12:00:00Z'],
        ['plain 1', '2026-06-02T12:00:00.000Z', null],
        ['Daily stand-up', '2026-06-04T18:00:00+00:00', '2026-06-04T12:00:00Z'],
        ['plain 2', '2026-06-04T18:00:00.000Z', null],
        ['Daily stand-up', '2026-06-05T12:00:00+00:00', '2026-06-05T12:00:00Z'],
        ['plain 3', '2026-06-06T07:00:00.000Z', null],
        ['Daily stand-up', '2026-06-06T12:00:00+00:00', '2026-06-06T12:00:00Z'],
        ['Daily stand-up', '2026-06-07T12:00:00+00:00', '2026-06-07T12:00:00Z'],
      ]);
      expect(total).toBe(11);
      const occurrence = items[1];
      expect(occurrence).toMatchObject({
        series_id: occurrence.id,
        version: 1,
        end: { date_time: '2026-06-01T13:00:00+00:00', time_zone: 'UTC' },
        recurrence: ['RRULE:FREQ=DAILY'],
      });
      // The moved occurrence is found by its new time, not by its original one.
      const moved = await get<Page>(
        '/Calendar/events?from=2026-06-04T17:00:00Z&to=2026-06-04T19:00:00Z&person=wq',
      );
      expect(moved.body.value.items.map((i) => i.recurrence_id ?? i.title)).toEqual([
        '2026-06-04T12:00:00Z',
        'plain 2',
      ]);
      const original = await get<Page>(
        '/Calendar/events?from=2026-06-04T11:00:00Z&to=2026-06-04T13:00:00Z&person=wq',
      );
      expect(original.body.value).toEqual({ items: [], total: 0 });
      const cancelled = await get<Page>(
        '/Calendar/events?from=2026-06-03T00:00:00Z&to=2026-06-04T00:00:00Z&person=wq',
      );
      expect(cancelled.body.value.total).toBe(0);
    });

    it('keeps total and paging exact with plain and recurring events mixed, in every order', async () => {
      for (const sort of ['start', '-start', 'updated', '-updated']) {
        const all = (await get<Page>(`/Calendar/events?${week}&person=wq&limit=250&sort=${sort}`)).body.value;
        expect(all.total).toBe(11);
        expect(all.items).toHaveLength(11);
        const ids = (items: Item[]) => items.map((i) => `${String(i.id)}/${i.recurrence_id ?? ''}`);
        for (const limit of [1, 2, 3, 5]) {
          for (let offset = 0; offset <= 12; offset++) {
            const page = (
              await get<Page>(
                `/Calendar/events?${week}&person=wq&limit=${limit}&offset=${offset}&sort=${sort}`,
              )
            ).body.value;
            expect([sort, limit, offset, page.total, ids(page.items)]).toEqual([
              sort,
              limit,
              offset,
              11,
              ids(all.items.slice(offset, offset + limit)),
            ]);
          }
        }
      }
      // Without a range a series is listed once, as its master.
      const unranged = await get<Page>('/Calendar/events?person=wq&limit=250');
      expect(unranged.body.value.total).toBe(7);
    });

    it('gives busy blocks of occurrences to a FreeBusy-only product', async () => {
      const blocks = await get<Page>(
        '/Calendar/events?from=2026-06-04T00:00:00Z&to=2026-06-05T00:00:00Z&person=fb',
        as(busy, 'busy'),
      );
      expect(blocks.body.value).toEqual({
        items: [
          {
            start: { date_time: '2026-06-04T18:00:00+00:00', time_zone: 'UTC' },
            end: { date_time: '2026-06-04T19:00:00+00:00', time_zone: 'UTC' },
            all_day: false,
            free_busy: 'busy',
          },
        ],
        total: 1,
      });
    });

    it('blocks free/busy with each occurrence, overrides applied', async () => {
      const fb = await get<{ items: { busy: { start: string; end: string }[] }[] }>(
        `/Calendar/freebusy?${week}&people=fb`,
      );
      expect(fb.status).toBe(200);
      expect(
        fb.body.value.items[0].busy.map((b) => `${b.start.slice(5, 16)}-${b.end.slice(11, 16)}`),
      ).toEqual([
        '06-01T12:00-13:00',
        '06-02T12:00-13:00',
        '06-04T18:00-19:00',
        '06-05T12:00-13:00',
        '06-06T12:00-13:00',
        '06-07T12:00-13:00',
      ]);
      const slots = await request<Env<{ items: { start: string }[] }>>(`${base}/Calendar/findSlots`, {
        headers: as(crm, 'crm'),
        body: {
          participants: [{ kind: 'person', id: 'fb' }],
          duration_minutes: 60,
          range: { from: '2026-06-03T12:00:00Z', to: '2026-06-04T19:00:00Z' },
          granularity_minutes: 60,
        },
      });
      const startsAt = slots.body.value.items.map((x) => x.start.slice(5, 16));
      // The cancelled 3 June occurrence frees 12:00; the moved 4 June one blocks 18:00, not 12:00.
      expect(startsAt).toContain('06-03T12:00');
      expect(startsAt).toContain('06-04T12:00');
      expect(startsAt).not.toContain('06-04T18:00');
    });
  });

  describe('write-time validation', () => {
    const line = async (recurrence: unknown, language = 'en') =>
      upsert(
        {
          entity_id: 'INVALID',
          start: { date_time: '2026-06-01T09:00:00+02:00', time_zone: 'Europe/Berlin' },
          recurrence,
        },
        as(crm, 'crm', { 'Language-Code': language }),
      );

    it('refuses an invalid RRULE with 400 and the reason, line and part, in the caller language', async () => {
      const bad = await line(['RRULE:FREQ=WEEKLY', 'RRULE:FREQ=DAILY;BYDAY=XX']);
      expect(bad.status).toBe(400);
      expect(bad.body.value).toMatchObject({
        reason: 'CALENDAR_RECURRENCE_INVALID',
        recurrence: { reason: 'BAD_VALUE', line: 1 },
      });
      const ru = await line(['RRULE:FREQ=WEEKLY;COUNT=2;UNTIL=20260701T000000Z'], 'ru');
      expect(ru.status).toBe(400);
      expect(ru.body.value).toMatchObject({ recurrence: { reason: 'COUNT_WITH_UNTIL', line: 0 } });
      expect(ru.body.error).toMatch(/^Правило повторения недопустимо \(COUNT_WITH_UNTIL\) в строке 0/);
      // A time-of-day part on an all-day series does not fit its start.
      const allDay = await upsert({
        entity_id: 'INVALID',
        start: { date: '2026-06-01' },
        recurrence: ['RRULE:FREQ=DAILY;BYHOUR=9'],
      });
      expect(allDay.body.value).toMatchObject({ recurrence: { reason: 'TIME_ON_DATE_SERIES' } });
    });

    it('answers hostile lines with 400, never 500 or a hang', async () => {
      const hostile: unknown[] = [
        ['RRULE:FREQ=DAILY;COUNT=1e12'],
        ['RRULE:FREQ=SECONDLY;INTERVAL=99999999999999999999'],
        ['RRULE:FREQ=DAILY;INTERVAL=2147483648'],
        Array.from({ length: 1000 }, () => 'RRULE:FREQ=DAILY'),
        ['garbage'],
        ['RRULE:'],
        ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;BYSETPOS=1;BYSETPOS=2'],
        ['EXDATE;TZID=Mars/Olympus:20260601T090000'],
        ['RRULE:FREQ=DAILY;UNTIL=99999999T999999Z'],
        [`RRULE:FREQ=DAILY;BYMONTHDAY=${'1,'.repeat(1200)}1`],
        ['RDATE:' + Array.from({ length: 150 }, () => '20260601T090000Z').join(',')],
        'RRULE:FREQ=DAILY',
        [42],
      ];
      for (const h of hostile) {
        const started = Date.now();
        const res = await line(h);
        expect([JSON.stringify(h).slice(0, 60), res.status, res.body.value.reason]).toEqual([
          JSON.stringify(h).slice(0, 60),
          400,
          expect.any(String),
        ]);
        expect(Date.now() - started).toBeLessThan(2000);
      }
    });
  });

  describe('access', () => {
    it('needs Read for a product and participation for a person', async () => {
      const range = '2026-06-01T00:00:00Z';
      const free = await expand('OVR', range, '2026-07-01T00:00:00Z', '', as(busy, 'busy'));
      expect([free.status, free.body.value.reason]).toEqual([403, 'CALENDAR_GRANT_MISSING']);
      const freeMissing = await expand(
        'NOPE',
        range,
        '2026-07-01T00:00:00Z',
        '&product_id=crm',
        as(busy, 'busy'),
      );
      expect([freeMissing.status, freeMissing.body.value.reason]).toEqual([403, 'CALENDAR_GRANT_MISSING']);
      const olga = { PlatformSession: await fx.session('olga') };
      const own = await expand('OVR', range, '2026-07-01T00:00:00Z', '&product_id=crm', olga);
      expect([own.status, own.body.value.total]).toEqual([200, 3]);
      const noProduct = await expand('OVR', range, '2026-07-01T00:00:00Z', '', olga);
      expect(noProduct.status).toBe(400);
      // Someone else's event answers as a missing one.
      const other = { PlatformSession: await fx.session('pavel') };
      const theirs = await expand('OVR', range, '2026-07-01T00:00:00Z', '&product_id=crm', other);
      const missing = await expand('NOPE', range, '2026-07-01T00:00:00Z', '&product_id=crm', other);
      expect([theirs.status, theirs.body.value.reason]).toEqual([404, 'CALENDAR_EVENT_NOT_FOUND']);
      expect(missing.body.value.reason).toBe(theirs.body.value.reason);
    });

    it('answers 422 for a stored series the engine refuses', async () => {
      await withClient(fx.db.url, (c) =>
        c.query(`INSERT INTO calendar.events (account_id, product_id, entity_type, entity_id, version, title,
                   starts_at, ends_at, time_zone, recurrence)
                 VALUES ('acme', 'crm', 'meeting', 'LEGACY', 1, 'legacy', '2026-06-01T07:00Z', '2026-06-01T08:00Z',
                   'Europe/Berlin', '{"RRULE:FREQ=SOMETIMES"}')`),
      );
      const r = await expand('LEGACY', '2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z');
      expect([r.status, r.body.value.reason]).toEqual([422, 'CALENDAR_RECURRENCE_STORED_INVALID']);
      expect(r.body.value).toMatchObject({ recurrence: { reason: 'BAD_VALUE' } });
    });
  });
});
