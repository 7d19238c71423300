import { request, withClient } from '@platform/testing';
import { startCalendar, type CalendarFixture } from './calendar-fixture';

type Env<T = Record<string, unknown>> = { success: boolean; code: number; error: string | null; value: T };
type Att = {
  kind: string;
  id?: string;
  email?: string;
  role: string;
  partstat: string;
  responded_at: string | null;
  comment: string | null;
  rsvp_token?: string;
};
type Invited = { event_id: string; version: number; attendees: Att[]; reason?: string };

describe('POST /Calendar/invite and /Calendar/rsvp (real PostgreSQL)', () => {
  let cal: CalendarFixture;
  let crm: string;
  const as = (key: string, extra: Record<string, string> = {}) => ({
    API_KEY: key,
    AccountId: 'acme',
    ProductId: 'crm',
    ...extra,
  });
  const upsert = (body: Record<string, unknown>) =>
    request<Env<{ id: string; version: number; attendees?: Att[] }>>(`${cal.base}/Calendar/upsert`, {
      headers: as(crm),
      body,
    });
  const invite = (body: Record<string, unknown>, headers: Record<string, string> = as(crm)) =>
    request<Env<Invited>>(`${cal.base}/Calendar/invite`, { headers, body });
  const rsvp = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    request<Env<{ version: number; attendee: Att; reason?: string }>>(`${cal.base}/Calendar/rsvp`, {
      headers,
      body,
    });
  const timed = {
    start: { date_time: '2099-12-01T10:00:00Z' },
    end: { date_time: '2099-12-01T11:00:00Z' },
  };

  beforeAll(async () => {
    cal = await startCalendar('cal_invitations');
    crm = await cal.product('crm', ['Push', 'Read']);
  });

  afterAll(async () => {
    await cal?.close();
  });

  it('invites people and guests, idempotently, bumping the version once, journaled and outboxed in one transaction', async () => {
    const created = await upsert({ entity_type: 'deal', entity_id: 'I-1', owner: 'alice', ...timed });
    const body = {
      entity_type: 'deal',
      entity_id: 'I-1',
      version: 1,
      attendees: [
        { kind: 'person', id: 'bob' },
        { kind: 'email', email: 'Guest@Example.COM', role: 'OPT-PARTICIPANT' },
      ],
    };
    const first = await invite(body);
    expect(first.status).toBe(200);
    expect(first.body.value.version).toBe(2);
    expect(first.body.value.attendees).toEqual([
      expect.objectContaining({
        kind: 'person',
        id: 'bob',
        role: 'REQ-PARTICIPANT',
        partstat: 'NEEDS-ACTION',
      }),
      expect.objectContaining({ kind: 'email', email: 'guest@example.com', role: 'OPT-PARTICIPANT' }),
    ]);
    expect(first.body.value.attendees[1].rsvp_token).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(first.body.value.attendees[0].rsvp_token).toBeUndefined();

    const again = await invite({ ...body, version: undefined });
    expect(again.body.value.version).toBe(2);
    expect(again.headers.get('x-journal-cursor')).toBeNull();

    const rows = await withClient(cal.db.url, async (c) => ({
      attendees: (
        await c.query(
          `SELECT kind, attendee_key, partstat, invited_by, xmin::text AS tx FROM calendar.event_attendees
           WHERE event_id = $1 ORDER BY attendee_key`,
          [created.body.value.id],
        )
      ).rows,
      event: (
        await c.query(`SELECT xmin::text AS tx FROM calendar.events WHERE id = $1`, [created.body.value.id])
      ).rows[0],
      journal: (
        await c.query(
          `SELECT version, xmin::text AS tx FROM calendar.journal WHERE event_id = $1 ORDER BY version`,
          [created.body.value.id],
        )
      ).rows,
      outbox: (
        await c.query(
          `SELECT payload, xmin::text AS tx FROM calendar.outbox WHERE aggregate_id = $1 ORDER BY seq`,
          [created.body.value.id],
        )
      ).rows,
    }));
    expect(rows.attendees.map((a) => [a.kind, a.attendee_key, a.partstat, a.invited_by])).toEqual([
      ['person', 'bob', 'NEEDS-ACTION', 'product:crm'],
      ['email', 'guest@example.com', 'NEEDS-ACTION', 'product:crm'],
    ]);
    expect(rows.journal.map((j) => j.version)).toEqual([1, 2]);
    expect(rows.outbox.map((o) => o.payload.version)).toEqual([1, 2]);
    expect(new Set([rows.event.tx, rows.journal[1].tx, rows.outbox[1].tx, rows.attendees[0].tx]).size).toBe(
      1,
    );
  });

  it('takes answers by session and by signed link; the same answer again changes nothing; the list shows them', async () => {
    await upsert({ entity_type: 'deal', entity_id: 'I-2', owner: 'alice', ...timed });
    const inv = await invite({
      entity_type: 'deal',
      entity_id: 'I-2',
      attendees: [
        { kind: 'person', id: 'bob' },
        { kind: 'email', email: 'guest@example.com' },
      ],
    });
    const token = inv.body.value.attendees[1].rsvp_token as string;

    const bob = { PlatformSession: await cal.session('bob') };
    const byBob = await rsvp(
      { product_id: 'crm', entity_type: 'deal', entity_id: 'I-2', answer: 'ACCEPTED', comment: 'Sure' },
      bob,
    );
    expect(byBob.status).toBe(200);
    expect(byBob.body.value).toMatchObject({
      version: 3,
      attendee: { kind: 'person', id: 'bob', partstat: 'ACCEPTED', comment: 'Sure' },
    });
    expect(byBob.body.value.attendee.responded_at).toMatch(/Z$/);

    const byGuest = await rsvp({ token, answer: 'TENTATIVE' });
    expect(byGuest.status).toBe(200);
    expect(byGuest.body.value).toMatchObject({
      version: 4,
      attendee: { kind: 'email', email: 'guest@example.com', partstat: 'TENTATIVE' },
    });
    // A guest sees only their own entry.
    expect(JSON.stringify(byGuest.body.value)).not.toContain('bob');
    const same = await rsvp({ token, answer: 'TENTATIVE' });
    expect(same.body.value.version).toBe(4);

    // Inviting again keeps the answers.
    const reinvite = await invite({
      entity_type: 'deal',
      entity_id: 'I-2',
      attendees: [{ kind: 'person', id: 'bob' }],
    });
    expect(reinvite.body.value.attendees[0]).toMatchObject({ id: 'bob', partstat: 'ACCEPTED' });
    expect(reinvite.body.value.version).toBe(4);

    const listed = await request<Env<{ items: { attendees: Att[] }[] }>>(
      `${cal.base}/Calendar/listByEntity?entity_type=deal&entity_id=I-2`,
      { headers: as(crm) },
    );
    expect(listed.body.value.items[0].attendees.map((a) => [a.kind, a.id ?? a.email, a.partstat])).toEqual([
      ['person', 'bob', 'ACCEPTED'],
      ['email', 'guest@example.com', 'TENTATIVE'],
    ]);
  });

  it('refuses tampered, foreign-purpose and missing tokens with 403/400, people not invited with 403', async () => {
    await upsert({ entity_type: 'deal', entity_id: 'I-3', owner: 'alice', ...timed });
    const inv = await invite({
      entity_type: 'deal',
      entity_id: 'I-3',
      attendees: [{ kind: 'email', email: 'x@example.com' }],
    });
    const token = inv.body.value.attendees[0].rsvp_token as string;
    const [v, claim, mac] = token.split('.');
    const other = Buffer.from(
      JSON.stringify(
        JSON.parse(Buffer.from(claim, 'base64url').toString()).map((f: unknown, i: number) =>
          i === 2 ? 'y@example.com' : f,
        ),
      ),
    ).toString('base64url');
    for (const bad of [
      `${v}.${other}.${mac}`,
      `${token.slice(0, -2)}AA`,
      'v1.x.y',
      'nonsense',
      `${token}.x`,
    ]) {
      const res = await rsvp({ token: bad, answer: 'ACCEPTED' }, { 'Language-Code': 'tr' });
      expect([res.status, res.body.value.reason]).toEqual([403, 'CALENDAR_RSVP_TOKEN_INVALID']);
      expect(res.body.error).toContain('geçersiz');
    }
    expect((await rsvp({ answer: 'ACCEPTED' })).status).toBe(400);
    expect((await rsvp({ token, answer: 'MAYBE' })).status).toBe(400);
    expect((await rsvp({ token, answer: 'NEEDS-ACTION' })).status).toBe(400);
    expect((await rsvp({ token, answer: 'ACCEPTED', comment: 'x'.repeat(501) })).status).toBe(400);

    const carol = { PlatformSession: await cal.session('carol') };
    const notInvited = await rsvp(
      { product_id: 'crm', entity_type: 'deal', entity_id: 'I-3', answer: 'ACCEPTED' },
      carol,
    );
    expect([notInvited.status, notInvited.body.value.reason]).toEqual([403, 'CALENDAR_NOT_INVITED']);
  });

  it('lets the owner person invite; not others; another account sees 404; stale version 409', async () => {
    await upsert({ entity_type: 'deal', entity_id: 'I-4', owner: 'alice' });
    const body = {
      product_id: 'crm',
      entity_type: 'deal',
      entity_id: 'I-4',
      attendees: [{ kind: 'person', id: 'dan' }],
    };
    const bob = await invite(body, { PlatformSession: await cal.session('bob') });
    expect([bob.status, bob.body.value.reason]).toEqual([403, 'CALENDAR_NOT_EVENT_OWNER']);
    const alice = await invite(body, { PlatformSession: await cal.session('alice') });
    expect(alice.status).toBe(200);
    const foreign = await invite(body, { PlatformSession: await cal.session('alice', [], 'globex') });
    expect([foreign.status, foreign.body.value.reason]).toEqual([404, 'CALENDAR_EVENT_NOT_FOUND']);
    const stale = await invite({ ...body, version: 1, attendees: [{ kind: 'person', id: 'eve' }] });
    expect([stale.status, stale.body.value.reason]).toEqual([409, 'CALENDAR_VERSION_CONFLICT']);
  });

  it('refuses hostile input with 400, never 500', async () => {
    await upsert({ entity_type: 'deal', entity_id: 'I-5' });
    const base = { entity_type: 'deal', entity_id: 'I-5' };
    for (const attendees of [
      [{ kind: 'email', email: 'not-an-email' }],
      [{ kind: 'email', email: 'a\u0000@example.com' }],
      [{ kind: 'person', id: 'p\u0000' }],
      [{ kind: 'person', id: 'bob', email: 'bob@example.com' }],
      [{ kind: 'person' }],
      [{ kind: 'robot', id: 'r' }],
      [JSON.parse('{"kind":"person","id":"a","__proto__":{"x":1}}')],
      Array.from({ length: 10_000 }, (_, i) => ({ kind: 'person', id: `p-${i}` })),
      [],
      'bob',
      [[[]]],
      [null],
      [[{ kind: 'person', id: 'a' }]],
    ]) {
      const res = await invite({ ...base, attendees });
      expect([res.status, res.body.success]).toEqual([400, false]);
    }
    // Nulls are not absences: a guest's answer with a null token or triple is refused, not a crash.
    for (const body of [
      { token: null, answer: 'ACCEPTED' },
      { token: 42, answer: 'ACCEPTED' },
      { token: { a: 1 }, answer: 'ACCEPTED' },
      { product_id: null, entity_type: 'deal', entity_id: 'I-5', answer: 'ACCEPTED' },
      { token: 'v1.x.y', answer: null },
      { token: 'v1.x.y', answer: 'ACCEPTED', comment: null },
      { token: 'v1.x.y', answer: 'ACCEPTED', entity_type: 'deal', entity_id: 'I-5' },
    ]) {
      const res = await rsvp(body);
      expect(res.status).toBeLessThan(500);
      expect(res.body.success).toBe(false);
    }
    expect((await invite({ ...base, version: 1e308, attendees: [{ kind: 'person', id: 'a' }] })).status).toBe(
      400,
    );
    const many = Array.from({ length: 100 }, (_, i) => ({ kind: 'person', id: `p-${i}` }));
    for (let i = 0; i < 5; i++) {
      const res = await invite({ ...base, attendees: many.map((a) => ({ ...a, id: `${a.id}-${i}` })) });
      expect(res.status).toBe(200);
    }
    const over = await invite({ ...base, attendees: [{ kind: 'person', id: 'one-too-many' }] });
    expect([over.status, over.body.value.reason]).toEqual([400, 'CALENDAR_TOO_MANY_ATTENDEES']);
  });
});
