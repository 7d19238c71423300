import { ACCOUNTING_EVENT_TYPES, BUREAU_EVENT_TYPES } from '@platform/messaging';
import { derivedEventId, notificationsOf, WEBHOOK_EVENT_TYPES } from './webhook-events';

describe('webhook events of lending', () => {
  it('offer the notifications and every bureau and accounting type, once each', () => {
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(3 + BUREAU_EVENT_TYPES.length + ACCOUNTING_EVENT_TYPES.length);
    expect(new Set(WEBHOOK_EVENT_TYPES).size).toBe(WEBHOOK_EVENT_TYPES.length);
  });

  it('turn an overdue and a payment into their notifications, with ids derived from the source', () => {
    const source = '5b7f9e2a-1c3d-4e6f-8a9b-0c1d2e3f4a5b';
    const [overdue] = notificationsOf('lending.bureau.overdue-started', source, {
      eventType: 'lending.bureau.overdue-started',
      loanId: 'l1',
      overdueSince: '2027-01-05',
      overdueAmount: 1271810,
      currency: 'RUB',
      balances: { total: 25000000, daysPastDue: 1 },
    });
    expect(overdue).toMatchObject({
      type: 'lending.notification.payment-overdue',
      data: {
        sourceEventId: source,
        loanId: 'l1',
        overdueAmount: 1271810,
        daysPastDue: 1,
        totalOutstanding: 25000000,
      },
    });
    expect(overdue.eventId).toBe(derivedEventId(source, 'lending.notification.payment-overdue'));
    expect(overdue.eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const [paid] = notificationsOf('lending.bureau.payment-received', source, { amount: 5, paymentId: 'p' });
    expect(paid).toMatchObject({ type: 'lending.notification.repayment-received', data: { amount: 5 } });
    expect(paid.eventId).not.toBe(overdue.eventId);
    expect(notificationsOf('lending.accounting.payment-received', source, {})).toEqual([]);
  });
});
