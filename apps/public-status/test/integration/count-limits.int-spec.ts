import { request } from '@platform/testing';
import { startStatus, type StatusFixture } from './status-fixture';

/**
 * The bound on subscribers per business (SUBSCRIBERS_MAX_PER_BUSINESS) holds when sign-ups come at
 * once (issue 23): the count, the webhook subscription and the subscriber row are one transaction
 * under the platform's count lock (libs/persistence withinCountLimit). Before, the webhook sign-up
 * counted in one transaction and created in others, so concurrent ones passed the bound together.
 */
describe('public-status subscriber bound under concurrency (real PostgreSQL)', () => {
  const MAX = 20;
  const AT_ONCE = 25;
  let s: StatusFixture;

  beforeAll(async () => {
    s = await startStatus('ps_count_limits', {
      SUBSCRIBERS_MAX_PER_BUSINESS: String(MAX),
      WEBHOOKS_WORKER_INTERVAL_MS: '0',
      MAIL_WORKER_INTERVAL_MS: '0',
      MONITORING_TICK_MS: '0',
    });
    const mgr = await s.business('acme');
    await s.manage(mgr, 'PUT', '/business', { name: 'Acme', published: true });
  });
  afterAll(() => s?.close());

  const subscribe = (body: unknown) =>
    request<{ success: boolean; value: { reason?: string } }>(`${s.base}/PublicStatus/Subscribe`, {
      method: 'POST',
      body,
    });

  const tally = (answers: { status: number; body: { value: { reason?: string } } }[]) =>
    answers.reduce<Record<string, number>>((n, a) => {
      const k = a.status < 300 ? String(a.status) : `${a.status} ${a.body.value.reason}`;
      n[k] = (n[k] ?? 0) + 1;
      return n;
    }, {});

  it(`takes exactly ${MAX} of ${AT_ONCE} concurrent webhook sign-ups, then refuses email ones too`, async () => {
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        subscribe({ business: 'acme', webhook: `https://93.184.216.34/status/${i}` }),
      ),
    );
    expect(tally(answers)).toEqual({ '201': MAX, '409 PUBLIC_STATUS_SUBSCRIBERS_FULL': AT_ONCE - MAX });
    const email = await subscribe({ business: 'acme', email: 'late@example.com' });
    expect([email.status, email.body.value.reason]).toEqual([409, 'PUBLIC_STATUS_SUBSCRIBERS_FULL']);
  });
});
