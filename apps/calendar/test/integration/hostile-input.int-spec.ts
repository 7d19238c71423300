import { rawRequest, withClient } from '@platform/testing';
import { startCalendar, type CalendarFixture } from './calendar-fixture';

type Field = { field: string; rule: string; message: string };
type ErrorValue = { reason: string; requestId: string; fields?: Field[] };

/**
 * The ten classes of hostile input an outside client found (each answered 500, left the envelope, or
 * leaked), one block each. Every answer must be a 4xx envelope with a stable reason, the field at
 * fault and the request id; nothing is stored that differs from what was sent.
 */
describe('calendar under hostile input (real PostgreSQL)', () => {
  let fx: CalendarFixture;
  let base: string;
  let db: CalendarFixture['db'];
  let crm: string;
  let busy: string;
  let n = 0;

  const product = (key: string, id: string, extra: Record<string, string> = {}) => ({
    API_KEY: key,
    AccountId: 'acme',
    ProductId: id,
    ...extra,
  });
  const session = (sub: string) => fx.session(sub);
  /** Posts a body given as raw text (or bytes), so JSON.stringify cannot clean it first. */
  const upsertRaw = (body: string | Buffer, headers: Record<string, string> = {}) =>
    rawRequest(`${base}/Calendar/upsert`, { headers: { ...product(crm, 'crm'), ...headers }, body });
  const upsert = (fields: Record<string, unknown>) =>
    upsertRaw(JSON.stringify({ entity_type: 'fuzz', entity_id: `E-${++n}`, ...fields }));
  const get = (path: string, headers: Record<string, string> = product(crm, 'crm')) =>
    rawRequest(`${base}${path}`, { headers });

  const rejected = (res: Awaited<ReturnType<typeof rawRequest>>, status: number, reason: string) => {
    expect({ status: res.status, reason: (res.json?.value as ErrorValue | undefined)?.reason }).toEqual({
      status,
      reason,
    });
    expect(res.json).toMatchObject({ success: false, code: status });
    const value = res.json?.value as ErrorValue;
    expect(value.requestId).toBe(res.headers['x-request-id']);
    return value;
  };
  const fieldError = (res: Awaited<ReturnType<typeof rawRequest>>, field: string, rule: string) => {
    const value = rejected(res, 400, 'VALIDATION_FAILED');
    expect(value.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field, rule })]));
  };
  const storedTitles = () =>
    withClient(db.url, async (c) =>
      (
        await c.query<{ title: string }>(`SELECT title FROM calendar.events WHERE entity_type = 'fuzz'`)
      ).rows.map((r) => r.title),
    );

  beforeAll(async () => {
    fx = await startCalendar('calendar_hostile', { CALENDAR_WRITE_LIMIT: '100000' });
    ({ base, db } = fx);
    crm = await fx.product('crm', ['Push', 'Read']);
    busy = await fx.product('busy', ['FreeBusy']);
  });

  afterAll(async () => {
    await fx?.close();
  });

  describe('1. NUL characters', () => {
    it('are a field error in a body field, a map key, a map value and a query parameter', async () => {
      fieldError(await upsert({ title: 'a\u0000b' }), 'title', 'noNulCharacter');
      fieldError(await upsert({ metadata: { 'k\u0000': 'v' } }), 'metadata.k\u0000', 'noNulCharacter');
      fieldError(await upsert({ metadata: { k: 'v\u0000' } }), 'metadata.k', 'noNulCharacter');
      fieldError(await get('/Calendar/events?text=a%00b'), 'text', 'noNulCharacter');
      expect(await storedTitles()).toEqual([]);
    });
  });

  describe('2. deep nesting', () => {
    it.each([2000, 10000])('answers a body nested %i levels with 400 BODY_TOO_DEEP', async (depth) => {
      const body = `{"entity_type":"fuzz","entity_id":"deep","metadata":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      rejected(await upsertRaw(body), 400, 'BODY_TOO_DEEP');
    });
  });

  describe('3. numbers beyond the storage type', () => {
    it.each(['2147483648', '9007199254740993', '1e20'])('rejects version %s as a field error', async (v) => {
      const res = await upsertRaw(`{"entity_type":"fuzz","entity_id":"big","version":${v}}`);
      fieldError(res, 'version', 'max');
    });
    it('rejects offset=1e19 and a non-decimal limit', async () => {
      fieldError(await get('/Calendar/events?offset=1e19'), 'offset', 'isInt');
      fieldError(await get('/Calendar/events?offset=99999999999999999999'), 'offset', 'max');
      fieldError(await get('/Calendar/events?limit=0x10'), 'limit', 'isInt');
    });
  });

  describe('4. impossible dates', () => {
    it.each(['2026-13-01', '2026-12-32', '2026-02-29'])(
      'rejects start.date %s as a field error',
      async (d) => {
        fieldError(await upsert({ start: { date: d } }), 'start.date', 'isCalendarDate');
      },
    );
    it('rejects an instant outside years 0001-9999 and a range bound that is not a real date', async () => {
      fieldError(
        await upsert({ start: { date_time: '0000-01-01T00:00:00Z' } }),
        'start.date_time',
        'isInstant',
      );
      fieldError(
        await get('/Calendar/events?from=2026-02-30T00:00:00Z&to=2026-03-02T00:00:00Z'),
        'from',
        'isInstant',
      );
    });
  });

  describe('found by the fuzz harness', () => {
    it('rejects an all-day event on 9999-12-31, whose default end no date type holds', async () => {
      fieldError(await upsert({ start: { date: '9999-12-31' } }), 'end', 'inSupportedRange');
      fieldError(
        await upsert({ start: { date: '0001-01-01', time_zone: 'Asia/Tokyo' } }),
        'start',
        'inSupportedRange',
      );
    });

    it('replaces one team from 20 concurrent requests without a 500; the last one wins whole', async () => {
      const owner = await fx.session('olga', ['owner']);
      const sets = Array.from({ length: 20 }, (_, i) => [`p${i}`, 'shared', `q${i}`]);
      const answers = await Promise.all(
        sets.map((members) =>
          rawRequest(`${base}/Calendar/setTeamMembers`, {
            headers: { PlatformSession: owner },
            body: JSON.stringify({ team_id: 'race', members }),
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(sets.map(() => 200));
      const stored = await withClient(db.url, async (c) =>
        (
          await c.query<{ person_id: string }>(
            `SELECT person_id FROM calendar.team_members WHERE team_id = 'race' ORDER BY person_id`,
          )
        ).rows.map((r) => r.person_id),
      );
      expect(sets.map((m) => [...m].sort())).toContainEqual(stored);
    });
  });

  describe('5. one definition of length: Unicode code points', () => {
    it('accepts 500 emoji (1,000 UTF-16 units), stores them unchanged, and rejects 501', async () => {
      const title = '😀'.repeat(500);
      const ok = await upsert({ title });
      expect(ok.status).toBe(201);
      expect((ok.json?.value as { title: string }).title).toBe(title);
      fieldError(await upsert({ title: '😀'.repeat(501) }), 'title', 'maxChars');
      // A character with a variation selector is two code points, as PostgreSQL counts them.
      fieldError(await upsert({ title: '❤️'.repeat(251) }), 'title', 'maxChars');
      expect(await storedTitles()).toEqual([title]);
      // The column counts the same way, whichever path writes to it.
      const direct = await withClient(db.url, (c) =>
        c.query(`UPDATE calendar.events SET title = $1 WHERE entity_type = 'fuzz'`, ['😀'.repeat(501)]).then(
          () => 'stored',
          (e: { constraint?: string }) => e.constraint,
        ),
      );
      expect(direct).toBe('events_text_lengths_ck');
    });
  });

  describe('6. invalid UTF-8 and lone surrogates', () => {
    it('rejects raw bytes that are not UTF-8 instead of storing U+FFFD', async () => {
      const body = Buffer.concat([
        Buffer.from('{"entity_type":"fuzz","entity_id":"utf","title":"a'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]);
      fieldError(await upsertRaw(body), 'title', 'wellFormedUtf8');
    });
    it('rejects a lone surrogate escape and a query parameter that is not UTF-8', async () => {
      fieldError(
        await upsertRaw('{"entity_type":"fuzz","entity_id":"sur","title":"\\ud800"}'),
        'title',
        'wellFormedUnicode',
      );
      fieldError(await get('/Calendar/events?text=%ff%fe'), 'text', 'wellFormedUtf8');
      expect(await storedTitles()).not.toContain('a\ufffd\ufffd');
    });
  });

  describe('7. keys named like Object.prototype members', () => {
    it.each(['__proto__', 'constructor', 'hasOwnProperty'])(
      'rejects %s as an unknown top-level field',
      async (k) => {
        fieldError(
          await upsertRaw(`{"entity_type":"fuzz","entity_id":"proto","${k}":{"title":"x"}}`),
          k,
          'whitelistValidation',
        );
        fieldError(await get(`/Calendar/events?${k}=1`), k, 'whitelistValidation');
      },
    );
    it('stores other prototype-member names in the free-form metadata map faithfully', async () => {
      const map = '{"hasOwnProperty":"c","toString":"d","valueOf":"e","__defineGetter__":"f"}';
      const res = await upsertRaw(`{"entity_type":"fuzz","entity_id":"meta","metadata":${map}}`);
      expect(res.status).toBe(201);
      const expected = JSON.parse(map) as object;
      expect(JSON.parse(res.text).value.metadata).toEqual(expected);
      const again = await get('/Calendar/listByEntity?entity_type=fuzz&entity_id=meta');
      expect(JSON.parse(again.text).value.items[0].metadata).toEqual(expected);
    });
    it.each(['__proto__', 'constructor', 'prototype'])(
      'refuses the reserved key %s in the metadata map instead of dropping it',
      async (k) => {
        const res = await upsertRaw(
          `{"entity_type":"fuzz","entity_id":"meta2","metadata":{"a":"1","${k}":"x"}}`,
        );
        fieldError(res, `metadata.${k}`, 'reservedKey');
      },
    );
  });

  describe('8. malformed filter values', () => {
    it.each(['garbage', 'room', 'desk:1', 'room:'])('rejects resource=%s naming the parameter', async (r) => {
      fieldError(await get(`/Calendar/events?resource=${r}`), 'resource', 'matches');
    });
  });

  describe('9. oversized headers and URL', () => {
    it('answers a 20 KB query string and a 20 KB header in the envelope, localised, with a request id', async () => {
      const longQuery = await get(`/Calendar/events?text=${'a'.repeat(20000)}`, {
        ...product(crm, 'crm'),
        'Language-Code': 'es',
      });
      const v = rejected(longQuery, 431, 'HEADERS_TOO_LARGE');
      expect(longQuery.json?.error).toMatch(/encabezados/i);
      expect(v.requestId).toMatch(/^[0-9a-f-]{36}$/);
      rejected(
        await get('/Calendar/events', { PlatformSession: 'x'.repeat(20000) }),
        431,
        'HEADERS_TOO_LARGE',
      );
    });
  });

  describe('10. busy-block callers cannot filter, sort or count by what they may not read', () => {
    beforeAll(async () => {
      for (const [id, title, visibility] of [
        ['L-1', 'Secret merger talk', 'default'],
        ['L-2', 'Dentist', 'private'],
      ]) {
        const res = await upsertRaw(
          JSON.stringify({
            entity_type: 'leak',
            entity_id: id,
            title,
            visibility,
            owner: 'bob',
            start: { date_time: '2026-12-01T10:00:00Z' },
            end: { date_time: '2026-12-01T11:00:00Z' },
          }),
        );
        expect(res.status).toBe(201);
      }
    });

    it.each(['text=merger', 'product=crm', 'status=confirmed', 'sort=updated', 'sort=-updated'])(
      'refuses %s to a FreeBusy-only product',
      async (param) => {
        const res = await get(`/Calendar/events?${param}`, product(busy, 'busy'));
        rejected(res, 403, 'CALENDAR_FILTER_NEEDS_READ');
      },
    );

    it("refuses listByEntity of another product's entity to a FreeBusy-only product", async () => {
      const res = await get('/Calendar/listByEntity?product_id=crm&entity_id=L-1', product(busy, 'busy'));
      rejected(res, 403, 'CALENDAR_FILTER_NEEDS_READ');
    });

    it("lets a person's text filter match only events whose text they can read", async () => {
      const headers = { PlatformSession: await session('bob') };
      const own = await get('/Calendar/events?text=dentist', headers);
      expect((own.json?.value as { total: number }).total).toBe(1);
      await withClient(db.url, (c) =>
        c.query(`INSERT INTO calendar.team_members (account_id, team_id, person_id)
                 VALUES ('acme', 'ops', 'bob'), ('acme', 'ops', 'alice')`),
      );
      const alice = { PlatformSession: await session('alice') };
      // alice sees bob's private event as a busy block; a word from its hidden title must not find it.
      const all = await get('/Calendar/events?person=bob', alice);
      expect((all.json?.value as { total: number }).total).toBe(2);
      const a = await get('/Calendar/events?text=dentist&person=bob', alice);
      const b = await get('/Calendar/events?text=zzzz&person=bob', alice);
      expect(a.json?.value).toEqual(b.json?.value);
      expect((a.json?.value as { total: number }).total).toBe(0);
    });
  });
});
