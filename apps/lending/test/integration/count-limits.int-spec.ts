import { startLending, type LendingFixture } from './lending-fixture';

/**
 * Every count bound of lending holds when the calls come at once (issue 23): 25 concurrent creates
 * against a bound of 20 leave exactly 20, and the other 5 get the documented coded 409. Before the
 * shared count lock (libs/persistence withinCountLimit) 22 to 25 webhook subscriptions were created.
 */
describe('lending count limits under concurrency (real PostgreSQL)', () => {
  let s: LendingFixture;
  const MAX = 20;
  const AT_ONCE = 25;

  beforeAll(async () => {
    s = await startLending('lending_count_limits', {
      WEBHOOKS_WORKER_INTERVAL_MS: '0',
      WEBHOOK_SUBSCRIPTIONS_MAX_PER_ORGANIZATION: String(MAX),
      API_KEYS_MAX_LIVE_PER_OWNER: String(MAX),
    });
  });
  afterAll(() => s?.close());

  const statuses = (answers: { status: number; body: { value: { reason?: string } } }[]) =>
    answers.reduce<Record<string, number>>((n, a) => {
      const k = a.status === 201 ? '201' : `${a.status} ${a.body.value.reason}`;
      n[k] = (n[k] ?? 0) + 1;
      return n;
    }, {});

  it(`creates exactly ${MAX} webhook subscriptions of ${AT_ONCE} concurrent CreateSubscription`, async () => {
    const org = await s.organization('bank-hooks');
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        s.call(org, 'POST', '/Webhooks/CreateSubscription', {
          url: `https://93.184.216.34/hooks/${i}`,
          events: ['lending.bureau.loan-disbursed'],
        }),
      ),
    );
    expect(statuses(answers)).toEqual({
      '201': MAX,
      '409 WEBHOOK_SUBSCRIPTION_LIMIT_REACHED': AT_ONCE - MAX,
    });
    const refused = answers.find((a) => a.status === 409);
    expect(refused?.body.error).toContain(String(MAX));
    const list = await s.call<{ total: number }>(org, 'GET', '/Webhooks/GetSubscriptions');
    expect(list.body.value.total).toBe(MAX);

    // Another organization is bounded on its own, and is not held up by the first one's bound.
    const other = await s.organization('bank-hooks-2');
    const created = await s.call(other, 'POST', '/Webhooks/CreateSubscription', {
      url: 'https://93.184.216.34/hooks/x',
      events: ['lending.bureau.loan-disbursed'],
    });
    expect(created.status).toBe(201);
  });

  it(`issues exactly ${MAX} live keys of ${AT_ONCE} concurrent IssueKey, the admin key included`, async () => {
    const admin = await s.organization('bank-keys');
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        s.call(admin, 'POST', '/ApiKeys/IssueKey', { label: `k${i}`, scopes: ['loans:read'] }),
      ),
    );
    // The fixture's own key is live too: MAX - 1 more fit.
    expect(statuses(answers)).toEqual({
      '201': MAX - 1,
      '409 API_KEY_LIMIT_REACHED': AT_ONCE - MAX + 1,
    });
    const keys = await s.call<{ total: number }>(admin, 'GET', '/ApiKeys/GetKeys?Count=100');
    expect(keys.body.value.total).toBe(MAX);

    // A reissue replaces: the key it replaces is not counted, so a full organization may still roll one.
    const one = answers.find((a) => a.status === 201)?.body.value as { keyId: string };
    const reissued = await s.call(admin, 'POST', '/ApiKeys/ReissueKey', { keyId: one.keyId });
    expect(reissued.status).toBe(201);
    // Revoking the replaced key leaves the organization at its bound again; one more revoked frees a place.
    for (const keyId of [
      one.keyId,
      (answers.filter((a) => a.status === 201)[1].body.value as { keyId: string }).keyId,
    ]) {
      expect((await s.call(admin, 'POST', '/ApiKeys/RevokeKey', { keyId })).status).toBe(200);
    }
    const again = await s.call(admin, 'POST', '/ApiKeys/IssueKey', {
      label: 'again',
      scopes: ['loans:read'],
    });
    expect(again.status).toBe(201);
    const past = await s.call(admin, 'POST', '/ApiKeys/IssueKey', { label: 'past', scopes: ['loans:read'] });
    expect([past.status, past.body.value.reason]).toEqual([409, 'API_KEY_LIMIT_REACHED']);
  });
});
