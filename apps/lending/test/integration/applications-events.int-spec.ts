import { randomUUID } from 'node:crypto';
import { LENDING_BUREAU_TOPIC, lendingEventViolations } from '@platform/messaging';
import { withClient } from '@platform/testing';
import { AccountingCloseJob } from '../../src/accounting/accounting-close.job';
import { bureauUidOf } from '../../src/loans/events/bureau-uid';
import { applicationBody, insertCustomer, submitted, type AppView } from './applications-helpers';
import { startLending, type LendingFixture } from './lending-fixture';
import { dayFromToday, idem, ok, productBody } from './loans-helpers';

interface OutboxRow {
  id: string;
  type: string;
  topic: string;
  aggregateType: string;
  tenant: string;
  requestId: string | null;
  payload: Record<string, unknown>;
}

/**
 * The bureau's application events (docs/lending/events.md, 758-P 1.1–1.3): each move of the workflow
 * that the bureau hears of writes its event once, through LoanEvents, in the move's transaction,
 * keyed by the application; a move refused (a replay) writes nothing; the contract made from the
 * application names it. Webhook subscriptions to these types get them, and every event names the HTTP
 * request that caused it (`request-id`); a job's event names none.
 */
describe('lending application events (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;
  let customer: string;
  let subscriptionId: string;

  beforeAll(async () => {
    s = await startLending('lending_app_events', {
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'loopback',
      // Deliveries stay pending: the test reads what was enqueued, not what a receiver got.
      WEBHOOKS_WORKER_INTERVAL_MS: '0',
    });
    a = await s.organization('bank-e');
    customer = await insertCustomer(s, 'bank-e');
    subscriptionId = (
      await ok<{ id: string }>(
        s.call(a, 'POST', '/Webhooks/CreateSubscription', {
          url: 'http://127.0.0.1:9/hooks',
          events: [
            'lending.bureau.application-submitted',
            'lending.bureau.application-approved',
            'lending.bureau.application-refused',
            'lending.bureau.application-withdrawn',
          ],
        }),
        201,
      )
    ).id;
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  /** The events keyed by `aggregateId`, in writing order. */
  const eventsOf = (aggregateId: string): Promise<OutboxRow[]> =>
    withClient(s.db.url, async (c) => {
      const r = await c.query<OutboxRow>(
        `SELECT id, event_type AS type, topic, aggregate_type AS "aggregateType", tenant_id AS tenant,
                request_id AS "requestId", payload
           FROM lending.outbox WHERE aggregate_id = $1 ORDER BY seq`,
        [aggregateId],
      );
      return r.rows;
    });
  const typesOf = (rows: OutboxRow[]) => rows.map((r) => r.type.replace(/^lending\.bureau\./, ''));
  const call = (path: string, body: Record<string, unknown>, headers = a) =>
    s.call<AppView>(headers, 'POST', `/Applications/${path}`, body);
  const create = async (nationalId: string, over: Record<string, unknown> = {}) =>
    (await ok<AppView>(call('CreateApplication', applicationBody(customer, nationalId, over)), 201)).id;

  /** Each a valid event of the bureau topic, of bank-e, keyed by the application, with the one record UID. */
  function checkEvents(rows: OutboxRow[], applicationId: string) {
    for (const r of rows) {
      expect([r.type, lendingEventViolations(r.type, r.payload)]).toEqual([r.type, []]);
      expect(r).toMatchObject({
        topic: LENDING_BUREAU_TOPIC,
        aggregateType: 'lending.application',
        tenant: 'bank-e',
      });
      expect(r.payload).toMatchObject({
        organizationId: 'bank-e',
        applicationId,
        customerId: customer,
        bureauUid: bureauUidOf(applicationId),
        eventDate: dayFromToday(0),
      });
    }
  }

  it('submit -> approve by the rules: the request, then the offer at the named product’s rate, once each; replays add nothing; the contract links the application', async () => {
    const product = await ok<{ id: string; code: string }>(
      s.call(a, 'POST', '/Loans/CreateLoanProduct', productBody({ annualRate: '19.9' })),
      201,
    );
    const id = await create('900101300500', {
      product: { productCode: product.code, amount: 1_000_000, currency: 'KZT', termMonths: 12 },
    });
    // A draft and its changes are the partner's working copy: nothing is reported.
    await ok(call('UpdateApplication', { applicationId: id, product: { amount: 900_000 } }));
    expect(await eventsOf(id)).toEqual([]);

    const requestId = `req-${randomUUID()}`;
    await ok(call('SubmitApplication', { applicationId: id }, { ...a, 'X-Request-Id': requestId }));
    const ran = await ok<AppView>(call('RunChecks', { applicationId: id }));
    expect(ran.status).toBe('approved');

    const events = await eventsOf(id);
    expect(typesOf(events)).toEqual(['application-submitted', 'application-approved']);
    checkEvents(events, id);
    expect(events[0].payload).toMatchObject({
      productType: 'loan',
      requestedAmount: 900_000,
      currency: 'KZT',
      requestedTermMonths: 12,
    });
    expect(events[1].payload).toMatchObject({
      approvedAmount: 900_000,
      currency: 'KZT',
      termMonths: 12,
      nominalRate: '19.9',
      offerValidUntil: dayFromToday(14),
    });
    // The request that submitted it is on its event; RunChecks got an id of its own.
    expect(events[0].requestId).toBe(requestId);
    expect(events[1].requestId).toMatch(/^[0-9a-f-]{36}$/);

    // Replays are refused by the workflow and write nothing.
    expect((await call('SubmitApplication', { applicationId: id })).status).toBe(409);
    expect((await call('RunChecks', { applicationId: id })).status).toBe(409);
    expect(await eventsOf(id)).toHaveLength(2);

    // The loan made from it: its contract event names the application and keeps its record UID.
    const loan = await ok<{ id: string }>(
      s.call(a, 'POST', '/Loans/CreateLoan', { applicationId: id, productId: product.id }),
      201,
    );
    await ok(s.call(idem(a), 'POST', '/Loans/DisburseLoan', { loanId: loan.id }));
    const [concluded] = await eventsOf(loan.id);
    expect(concluded.type).toBe('lending.bureau.loan-contract-concluded');
    expect(concluded.payload).toMatchObject({
      applicationId: id,
      bureauUid: bureauUidOf(id),
      nominalRate: '19.9',
    });
    expect(await eventsOf(id)).toHaveLength(2);
  });

  it('submit -> refuse by a person: the request, then the refusal with its reason, once; a second decision adds nothing', async () => {
    // Score 640: under the auto-approval bar, a person decides.
    const id = await submitted(s, a, customer, '900101300541');
    expect((await ok<AppView>(call('RunChecks', { applicationId: id }))).status).toBe('under_review');
    const declined = await ok<AppView>(
      call('MakeDecision', { applicationId: id, outcome: 'decline', reasons: ['NOT_AFFORDABLE'] }),
    );
    expect(declined.status).toBe('declined');
    const again = await call('MakeDecision', {
      applicationId: id,
      outcome: 'approve',
    });
    expect(again.status).toBe(409);

    const events = await eventsOf(id);
    expect(typesOf(events)).toEqual(['application-submitted', 'application-refused']);
    checkEvents(events, id);
    expect(events[1].payload).toMatchObject({
      requestedAmount: 1_000_000,
      currency: 'KZT',
      reason: 'debt-burden',
    });
  });

  it('refusals by the rules, counter-offers and their rejection, withdrawals, expiry and cancellation', async () => {
    // The rules decline an identity mismatch.
    const mismatch = await submitted(s, a, customer, '900101300511');
    expect((await ok<AppView>(call('RunChecks', { applicationId: mismatch }))).status).toBe('declined');
    const refused = await eventsOf(mismatch);
    expect(typesOf(refused)).toEqual(['application-submitted', 'application-refused']);
    checkEvents(refused, mismatch);
    expect(refused[1].payload.reason).toBe('identity-not-confirmed');

    // A counter-offer is an offer at its own rate; the customer turning it down withdraws.
    const countered = await submitted(s, a, customer, '900101300541');
    await ok(call('RunChecks', { applicationId: countered }));
    await ok(
      call('MakeDecision', {
        applicationId: countered,
        outcome: 'counter_offer',
        reasons: ['AMOUNT_REDUCED'],
        offer: { amount: 700_000, termMonths: 18, annualRateBps: 2750 },
      }),
    );
    await ok(call('RejectOffer', { applicationId: countered }));
    const offered = await eventsOf(countered);
    expect(typesOf(offered)).toEqual([
      'application-submitted',
      'application-approved',
      'application-withdrawn',
    ]);
    checkEvents(offered, countered);
    expect(offered[1].payload).toMatchObject({
      approvedAmount: 700_000,
      termMonths: 18,
      nominalRate: '27.5',
    });
    expect(offered[2].payload.withdrawnBy).toBe('applicant');

    // The rules' approval with no product of that code: the reference rate; then the offer lapses.
    const lapsed = await submitted(s, a, customer, '900101300500');
    await ok(call('RunChecks', { applicationId: lapsed }));
    await ok(call('ExpireApplication', { applicationId: lapsed }));
    const expired = await eventsOf(lapsed);
    expect(typesOf(expired)).toEqual([
      'application-submitted',
      'application-approved',
      'application-withdrawn',
    ]);
    checkEvents(expired, lapsed);
    expect(expired[1].payload.nominalRate).toBe('24');
    expect(expired[2].payload.withdrawnBy).toBe('offer-expired');

    // The customer withdraws a submitted application; the lender cancels another; a draft cancelled says nothing.
    const withdrawn = await submitted(s, a, customer, '900101300500');
    await ok(call('WithdrawApplication', { applicationId: withdrawn }));
    expect(typesOf(await eventsOf(withdrawn))).toEqual(['application-submitted', 'application-withdrawn']);
    const cancelled = await submitted(s, a, customer, '900101300500');
    await ok(call('CancelApplication', { applicationId: cancelled }));
    const ended = await eventsOf(cancelled);
    expect(typesOf(ended)).toEqual(['application-submitted', 'application-refused']);
    expect(ended[1].payload.reason).toBe('other');
    const draft = await create('900101300500');
    await ok(call('CancelApplication', { applicationId: draft }));
    expect(await eventsOf(draft)).toEqual([]);
  });

  it('enqueues them for the subscriptions that chose them, with the event’s id', async () => {
    const id = await submitted(s, a, customer, '900101300500');
    await ok(call('WithdrawApplication', { applicationId: id }));
    const events = await eventsOf(id);
    const page = await ok<{ items: { event: string; eventId: string }[] }>(
      s.call(a, 'GET', `/Webhooks/GetDeliveries?SubscriptionId=${subscriptionId}&Count=100`),
    );
    const ours = page.items.filter((d) => events.some((e) => e.id === d.eventId));
    expect(ours.map((d) => [d.event, d.eventId]).sort()).toEqual(events.map((e) => [e.type, e.id]).sort());
  });

  it('names no request on an event a job writes (the accounting day close)', async () => {
    await s.app.get(AccountingCloseJob).closeAll(new Date(Date.now() + 86_400_000));
    const closed = await withClient(s.db.url, (c) =>
      c.query<{ requestId: string | null }>(
        `SELECT request_id AS "requestId" FROM lending.outbox
          WHERE tenant_id = 'bank-e' AND event_type = 'lending.accounting.day-closed'`,
      ),
    );
    expect(closed.rows.length).toBeGreaterThan(0);
    expect(closed.rows.every((r) => r.requestId === null)).toBe(true);
  });
});
