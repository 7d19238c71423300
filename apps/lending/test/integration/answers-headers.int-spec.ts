import { rawRequest } from '@platform/testing';
import { startLending, type LendingFixture } from './lending-fixture';

/**
 * Small mends of issue 23, through HTTP: an over-long or empty webhook URL is the documented 422
 * WEBHOOK_URL_INVALID (it was 400 VALIDATION_FAILED); every answer that shows a secret says
 * `Cache-Control: no-store`; every lending answer, errors included, says `Api-Version`.
 */
describe('lending answers: webhook URL refusals, no-store on secrets, Api-Version everywhere (real PostgreSQL)', () => {
  let s: LendingFixture;
  let org: Record<string, string>;
  const events = ['lending.bureau.loan-disbursed'];

  beforeAll(async () => {
    s = await startLending('lending_answer_headers', { WEBHOOKS_WORKER_INTERVAL_MS: '0' });
    org = await s.organization('bank-answers');
  });
  afterAll(() => s?.close());

  it('answers an over-long or empty webhook URL with 422 WEBHOOK_URL_INVALID, on create and on update', async () => {
    const long = `https://93.184.216.34/${'a'.repeat(2048)}`;
    for (const url of [long, '']) {
      const r = await s.call(org, 'POST', '/Webhooks/CreateSubscription', { url, events }, 'tr');
      expect([r.status, r.body.value.reason]).toEqual([422, 'WEBHOOK_URL_INVALID']);
      expect(r.body.error).toMatch(/2048/);
    }
    const ok = await s.call<{ id: string }>(org, 'POST', '/Webhooks/CreateSubscription', {
      url: 'https://93.184.216.34/hooks',
      events,
    });
    expect(ok.status).toBe(201);
    const upd = await s.call(org, 'POST', '/Webhooks/UpdateSubscription', {
      subscriptionId: ok.body.value.id,
      url: long,
    });
    expect([upd.status, upd.body.value.reason]).toEqual([422, 'WEBHOOK_URL_INVALID']);
  });

  it('sends Cache-Control: no-store with every answer that shows a secret', async () => {
    const created = await s.call<{ id: string; secret: string }>(
      org,
      'POST',
      '/Webhooks/CreateSubscription',
      {
        url: 'https://93.184.216.34/secret',
        events,
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.value.secret).toBeTruthy();
    expect(created.headers.get('cache-control')).toBe('no-store');
    const rotated = await s.call<{ secret: string }>(org, 'POST', '/Webhooks/RotateSecret', {
      subscriptionId: created.body.value.id,
    });
    expect([rotated.status, rotated.headers.get('cache-control')]).toEqual([200, 'no-store']);
    expect(rotated.body.value.secret).not.toBe(created.body.value.secret);
    const key = await s.call<{ apiKey: string }>(org, 'POST', '/ApiKeys/IssueKey', {
      label: 'x',
      scopes: ['loans:read'],
    });
    expect([key.status, key.headers.get('cache-control')]).toEqual([201, 'no-store']);
    // A read shows no secret, and may be kept.
    const read = await s.call(
      org,
      'GET',
      `/Webhooks/GetSubscription?SubscriptionId=${created.body.value.id}`,
    );
    expect(read.status).toBe(200);
    expect(read.body.value).not.toHaveProperty('secret');
  });

  it('says Api-Version on every answer: success, 404, 415, 413, 400 (malformed, invalid, unknown version), 401, 431', async () => {
    const base = s.base;
    const answers: Record<string, { status: number; headers: Record<string, unknown> }> = {
      ok: await rawRequest(`${base}/Webhooks/GetEventTypes`, { headers: org }),
      unknownRoute: await rawRequest(`${base}/Nope/Nothing`, { headers: org }),
      unsupportedType: await rawRequest(`${base}/Loans/RunAccruals`, {
        method: 'POST',
        headers: { ...org, 'content-type': 'text/plain' },
        body: 'x',
      }),
      tooLarge: await rawRequest(`${base}/Customers/CreateCustomer`, {
        method: 'POST',
        headers: org,
        body: `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`,
      }),
      malformed: await rawRequest(`${base}/Customers/CreateCustomer`, {
        method: 'POST',
        headers: org,
        body: '{"a":',
      }),
      invalid: await rawRequest(`${base}/Customers/CreateCustomer`, {
        method: 'POST',
        headers: org,
        body: '{"kind":7}',
      }),
      noKey: await rawRequest(`${base}/Webhooks/GetSubscriptions`),
      unknownVersion: await rawRequest(`${base}/Webhooks/GetEventTypes`, {
        headers: { ...org, 'Api-Version': '7' },
      }),
      headersTooLarge: await rawRequest(`${base}/Webhooks/GetEventTypes`, {
        headers: { ...org, 'X-Padding': 'x'.repeat(40_000) },
      }),
    };
    const seen = Object.fromEntries(
      Object.entries(answers).map(([k, r]) => [k, [r.status, r.headers['api-version']]]),
    );
    expect(seen).toEqual({
      ok: [200, '1'],
      unknownRoute: [404, '1'],
      unsupportedType: [415, '1'],
      tooLarge: [413, '1'],
      malformed: [400, '1'],
      invalid: [400, '1'],
      noKey: [401, '1'],
      unknownVersion: [400, '1'],
      headersTooLarge: [431, '1'],
    });
  });
});
