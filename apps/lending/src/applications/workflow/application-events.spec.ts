import { lendingEventViolations } from '@platform/messaging';
import { bureauUidOf } from '../../loans/events/bureau-uid';
import type { LoanApplication } from '../application.entity';
import { OFFER_VALID_DAYS, applicationEventsOf, offeredRate, refusalReason } from './application-events';
import { TRANSITIONS, type ApplicationStatus } from './application-workflow';

const APP = {
  id: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
  organizationId: 'org-a',
  status: 'draft',
  customerId: '2c1f4e8a-7b3d-4c5e-9f1a-0b2c3d4e5f60',
  productCode: 'CONSUMER_CASH',
  amount: 1_000_000,
  currency: 'KZT',
  termMonths: 12,
} as unknown as LoanApplication;
const TODAY = '2026-11-03';
const decision = {
  reasons: ['AMOUNT_REDUCED'],
  offer: { amount: 800_000, termMonths: 18, annualRateBps: 1990 },
};

/** The events of a move, as LoanEvents would write them (the shared fields filled in). */
const written = (
  from: string,
  to: ApplicationStatus,
  extra: Parameters<typeof applicationEventsOf>[1] = { from, to },
): (Record<string, unknown> & { eventType: string })[] =>
  applicationEventsOf(APP, { ...extra, from, to }, TODAY).map((e) => ({
    eventType: e.type,
    schemaVersion: 1,
    organizationId: 'org-a',
    occurredAt: '2026-11-03T10:00:00.000Z',
    ...(e.body as object),
  }));

describe('application events (758-P 1.x)', () => {
  it('announces every move of the table that the bureau hears of, with a valid payload, and no other', () => {
    const announced: string[] = [];
    for (const t of TRANSITIONS) {
      const withDecision = ['approved', 'counter_offered', 'declined'].includes(t.to)
        ? { from: t.from, to: t.to, decision, rate: '19.9' }
        : { from: t.from, to: t.to };
      for (const e of written(t.from, t.to, withDecision)) {
        expect([e.eventType, lendingEventViolations(e.eventType, e)]).toEqual([e.eventType, []]);
        expect(e).toMatchObject({ applicationId: APP.id, bureauUid: bureauUidOf(APP.id), eventDate: TODAY });
        announced.push(`${t.from}->${t.to}: ${e.eventType.replace('lending.bureau.', '')}`);
      }
    }
    expect(announced).toEqual([
      'draft->submitted: application-submitted',
      'submitted->cancelled: application-refused',
      'submitted->withdrawn: application-withdrawn',
      'checks_in_progress->approved: application-approved',
      'checks_in_progress->declined: application-refused',
      'checks_in_progress->withdrawn: application-withdrawn',
      'under_review->approved: application-approved',
      'under_review->declined: application-refused',
      'under_review->counter_offered: application-approved',
      'under_review->withdrawn: application-withdrawn',
      'approved->rejected_by_customer: application-withdrawn',
      'approved->expired: application-withdrawn',
      'counter_offered->rejected_by_customer: application-withdrawn',
      'counter_offered->expired: application-withdrawn',
    ]);
  });

  it('reports the request on submission and the offer on approval', () => {
    expect(written('draft', 'submitted')[0]).toMatchObject({
      productType: 'loan',
      requestedAmount: 1_000_000,
      currency: 'KZT',
      requestedTermMonths: 12,
      customerId: APP.customerId,
    });
    expect(
      written('under_review', 'counter_offered', {
        from: '',
        to: 'counter_offered',
        decision,
        rate: '19.9',
      })[0],
    ).toMatchObject({
      approvedAmount: 800_000,
      termMonths: 18,
      nominalRate: '19.9',
      offerValidUntil: '2026-11-17',
    });
    expect(OFFER_VALID_DAYS).toBe(14);
  });

  it('says who withdrew and why the lender refused', () => {
    expect(written('approved', 'expired')[0].withdrawnBy).toBe('offer-expired');
    expect(written('under_review', 'withdrawn')[0].withdrawnBy).toBe('applicant');
    expect(written('counter_offered', 'rejected_by_customer')[0].withdrawnBy).toBe('applicant');
    const declined = written('under_review', 'declined', {
      from: '',
      to: 'declined',
      decision: { reasons: ['REVIEWED_BY_UNDERWRITER', 'NOT_AFFORDABLE'], offer: null },
    })[0];
    expect(declined).toMatchObject({ reason: 'debt-burden', requestedAmount: 1_000_000 });
    expect(written('submitted', 'cancelled')[0].reason).toBe('other');
    expect(refusalReason(['IDENTITY_NOT_CONFIRMED', 'SCORE_TOO_LOW'])).toBe('identity-not-confirmed');
    expect(refusalReason(['ADVERSE_CREDIT_HISTORY'])).toBe('credit-history');
    expect(refusalReason(['AML_MATCH'])).toBe('other');
    expect(refusalReason([])).toBe('other');
  });

  it("prices an offer at its own rate, else the named product's, else the reference rate", () => {
    expect(offeredRate(2450, '19.9')).toBe('24.5');
    expect(offeredRate(null, '19.9')).toBe('19.9');
    expect(offeredRate(null, null)).toBe('24');
  });

  it('reports nothing of an application without its request (a row from before issue 12), and refuses a decision move without its decision', () => {
    const legacy = { ...APP, customerId: null, amount: null } as unknown as LoanApplication;
    expect(applicationEventsOf(legacy, { from: 'draft', to: 'submitted' }, TODAY)).toEqual([]);
    expect(() => applicationEventsOf(APP, { from: 'under_review', to: 'approved' }, TODAY)).toThrow(/offer/);
    expect(() => applicationEventsOf(APP, { from: 'under_review', to: 'declined' }, TODAY)).toThrow(
      /decision/,
    );
  });
});
